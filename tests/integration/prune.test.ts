import { beforeAll, describe, expect, it } from "vitest";
import { insertSignInChallenge } from "../../app/models/sign-in-challenge.server";
import { createUser } from "../../app/models/user.server";
import { runtime } from "../../app/services/runtime.server";
import { createSessionToken, tokenHash } from "../../app/services/session.server";
import { db } from "../../db/index";
import { migrated } from "../helpers";

// Issue 12: expired sessions and old sign-in attempts are pruned (at start, then hourly); issue 25:
// so are sign-ins left half-way between the password and the code.
describe("prune jobs", () => {
  let userId: string;
  beforeAll(async () => {
    await migrated();
    userId = (await createUser({ username: "prune", email: "prune@example.com", password: "correct-horse", role: "editor" })).id;
  });

  it("removes expired sessions and day-old sign-in attempts, keeps live ones", async () => {
    const live = await createSessionToken({ userId, kind: "cookie" });
    const expired = await createSessionToken({ userId, kind: "bearer" });
    await db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where("id", "=", tokenHash(expired))
      .execute();
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    await db
      .insertInto("login_attempts")
      .values([
        { username: "prune", ip: "203.0.113.1", success: 0, created_at: hoursAgo(25) },
        { username: "prune", ip: "203.0.113.1", success: 0, created_at: hoursAgo(1) },
      ])
      .execute();

    const challenge = { userId, redirectTo: null, ip: "203.0.113.1", userAgent: null };
    await insertSignInChallenge({ token: "waiting", challenge, expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await insertSignInChallenge({ token: "abandoned", challenge, expiresAt: new Date(Date.now() - 60_000).toISOString() });

    await runtime.prune();

    const challenges = await db.selectFrom("sign_in_challenges").select("id").execute();
    expect(challenges.map((c) => c.id)).toEqual([tokenHash("waiting")]);

    const sessions = await db.selectFrom("sessions").select("id").execute();
    expect(sessions.map((s) => s.id)).toEqual([tokenHash(live)]);
    const attempts = await db.selectFrom("login_attempts").select("created_at").execute();
    expect(attempts).toHaveLength(1);
    expect(Date.parse(attempts[0].created_at)).toBeGreaterThan(Date.now() - 2 * 3_600_000);
  });
});
