import { Kysely, OperationNodeTransformer, PostgresDialect, sql } from "kysely";
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  PrimitiveValueListNode,
  QueryResult,
  RootOperationNode,
  UnknownRow,
  ValueNode,
} from "kysely";
import pg from "pg";
import type { Database } from "../schema";
import type { DB, EngineHandle, TransactionOptions } from "./types";

// The second engine (DESIGN §13): PostgreSQL 15+ through Kysely's PostgresDialect and a `pg` pool.
// Everything PostgreSQL-only about connections, types, transactions, busy errors and change
// notifications lives here; the SQL that differs per engine is in db/sql/.

/** The channel on which a process tells the others that cached settings may be stale. */
const CHANGES_CHANNEL = "news_changes";
/** The channel of broadcast messages (page-store invalidations for the other boxes). */
const BROADCAST_CHANNEL = "news_broadcast";
/** NOTIFY takes at most 8,000 bytes of payload. */
export const BROADCAST_MAX_BYTES = 7_900;

export interface PostgresHandle extends EngineHandle {
  engine: "postgres";
  pool: pg.Pool;
  url: string;
}

/**
 * Values come back as the models expect them from SQLite: counts and sums as numbers (pg gives
 * bigint and numeric as strings), `timestamptz` as ISO-8601 UTC text with milliseconds (the form
 * SQLite stores and every model compares and formats).
 */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value);
    if (oid === pg.types.builtins.TIMESTAMPTZ) return isoFromPostgres;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** `2026-11-25 14:22:57.123456+00` (the session runs in UTC) → `2026-11-25T14:22:57.123Z`. */
export function isoFromPostgres(value: string): string {
  return new Date(value.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00")).toISOString();
}

/** Why the site could not use the database at url, in one line for an operator (never the password). */
export function connectionProblem(error: unknown, url: string): string {
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const where = redactedUrl(url);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // described below
  }
  const user = decodeURIComponent(parsed?.username ?? "");
  const database = decodeURIComponent(parsed?.pathname.slice(1) ?? "");
  if (["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ECONNRESET"].includes(code) || /timeout/i.test(String(error))) {
    return `Cannot reach PostgreSQL at ${where} (${code || "timed out"}): is the server running, and are the host and port in DATABASE_URL right?`;
  }
  if (code === "28P01" || code === "28000")
    return `PostgreSQL at ${where} refused the user "${user}" (wrong password, or no access to the database): check DATABASE_URL.`;
  if (code === "3D000") return `PostgreSQL at ${where} has no database "${database}": create it (createdb ${database}) or fix DATABASE_URL.`;
  const message = (error as Error)?.message ?? String(error);
  return `PostgreSQL at ${where} could not be used: ${message.replaceAll(url, where)}`;
}

/** A `postgres://` URL with its password replaced, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(not a URL)";
  }
}

export function openPostgres(url: string, { max = 10 }: { max?: number } = {}): PostgresHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    // Times in UTC whatever the server's default; a runaway statement ends after 30 s.
    options: "-c TimeZone=UTC -c statement_timeout=30000",
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its server (a restart) emits here; without a listener the process dies.
  pool.on("error", (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  // A client checked out of the pool has no pool listener: one whose backend ends between two
  // statements of a transaction (a restart, pg_terminate_backend) emitted 'error' on the client with
  // nobody listening, and the process died (the ops test's outage, in CI). Its transaction fails on
  // its next statement, and the pool drops it when it is given back.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new NoNulPlugin()] });
  const changes = listenForChanges(url);

  return {
    engine: "postgres",
    url,
    pool,
    db,
    transaction: (fn, options) => postgresTransaction(db, fn, options),
    changeVersion: () => changes.version(),
    async broadcast(message: string) {
      if (Buffer.byteLength(message) > BROADCAST_MAX_BYTES)
        throw new Error(`broadcast message of ${Buffer.byteLength(message)} bytes: at most ${BROADCAST_MAX_BYTES}`);
      await sql`select pg_notify(${BROADCAST_CHANNEL}, ${message})`.execute(db);
    },
    onBroadcast: (fn) => changes.subscribe(fn),
    async announceChange(executor: DB) {
      await sql`select pg_notify(${CHANGES_CHANNEL}, '')`.execute(executor);
    },
    async ready() {
      let version: number;
      try {
        const result = await sql<{ v: string }>`select current_setting('server_version_num') as v`.execute(db);
        version = Number(result.rows[0].v);
      } catch (error) {
        throw new Error(connectionProblem(error, url));
      }
      if (version < 150000) throw new Error(`PostgreSQL 15 or newer is needed; ${redactedUrl(url)} runs ${Math.floor(version / 10000)}.`);
    },
    async probe() {
      await Promise.race([
        sql`select 1`.execute(db),
        new Promise((_, reject) => setTimeout(() => reject(new Error("PostgreSQL did not answer within 1 s")), 1000).unref()),
      ]);
    },
    async analyze() {
      await sql`analyze`.execute(db);
    },
    // Autovacuum keeps PostgreSQL's statistics; nothing to do on a timer.
    optimize: () => Promise.resolve(),
    async close() {
      await changes.close();
      await db.destroy();
    },
  };
}

/**
 * One client per process LISTENs for change notifications. The version moves on each one, and
 * also whenever the listener is (re)connecting, because notifications sent meanwhile are lost:
 * caches then start afresh rather than trust what they hold.
 */
function listenForChanges(url: string) {
  let version = 0;
  const subscribers = new Set<(message: string) => void>();
  let connected = false;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connect = () => {
    if (closed) return;
    version++;
    const next = new pg.Client({ connectionString: url, types });
    next.on("notification", ({ channel, payload }) => {
      if (channel === CHANGES_CHANNEL) version++;
      else if (channel === BROADCAST_CHANNEL) for (const fn of subscribers) fn(payload ?? "");
    });
    next.on("error", () => undefined);
    next.on("end", () => {
      if (client !== next || closed) return;
      client = undefined;
      version++;
      retry = setTimeout(connect, 1000);
      retry.unref();
    });
    client = next;
    next
      .connect()
      .then(() => next.query(`LISTEN ${CHANGES_CHANNEL}; LISTEN ${BROADCAST_CHANNEL}`))
      .then(() => {
        // The connection must not keep the process alive on its own.
        (next as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
        version++;
        // Broadcasts sent while this listener was away are lost: an empty message tells the
        // subscribers so (the page store then drops what it holds).
        if (connected) for (const fn of subscribers) fn("");
        connected = true;
      })
      .catch(() => {
        if (client === next) next.end().catch(() => undefined);
      });
  };
  connect();
  return {
    version: () => version,
    subscribe(fn: (message: string) => void) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

// PostgreSQL's text cannot hold a NUL character (SQLite's can): a bound string with one fails as
// "invalid byte sequence" (a 500 where SQLite answers a 404, found by tests/integration/fuzz.test.ts:
// GET /article/%00/). A NUL is never meaningful in a newsroom's text, so every bound string loses
// its NULs on the way in, and both engines then answer the same.
const withoutNul = (value: unknown) => (typeof value === "string" && value.includes("\0") ? value.replaceAll("\0", "") : value);

class NoNulTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = withoutNul(node.value);
    return value === node.value ? super.transformValue(node) : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(withoutNul) };
  }
}

class NoNulPlugin implements KyselyPlugin {
  private readonly transformer = new NoNulTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

// A deadlock or a serialisation failure: the transaction lost a race and may simply run again.
const RETRYABLE = new Set(["40001", "40P01"]);
// Those, plus a lock or a connection slot not had in time, a statement past its timeout: the
// database is busy (503, not 500).
const BUSY = new Set([...RETRYABLE, "55P03", "53300", "57014"]);
const ATTEMPTS = 3;

/** A PostgreSQL error that means "busy, try again" rather than a bug. */
export function isPostgresBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && BUSY.has(code);
}

/** The advisory lock every write transaction holds: one key for the whole site. */
export const WRITE_LOCK = 7_262_001;

/**
 * One writer at a time, as on SQLite (`BEGIN IMMEDIATE`), across every process and box: the
 * transaction first takes a site-wide advisory lock, waiting at most 5 s (SQLite's busy timeout)
 * before the route answers 503, and runs in READ COMMITTED, so each statement sees every write
 * committed before the lock was had. A read-modify-write (the edit-conflict check, the
 * scheduler's publish) therefore never interleaves with another. Serializable isolation was
 * tried first: on small tables PostgreSQL's predicate locks made concurrent saves of different
 * articles fail as serialisation conflicts (the fault and load tests saw 503s), which a newsroom
 * would meet as "try again". A deadlock is still retried, twice.
 */
async function postgresTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>, { durable = true }: TransactionOptions = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = '5s'`.execute(trx);
        await sql`select pg_advisory_xact_lock(${WRITE_LOCK})`.execute(trx);
        await sql`set local lock_timeout = 0`.execute(trx);
        if (!durable) await sql`set local synchronous_commit = off`.execute(trx);
        return fn(trx);
      });
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (attempt >= ATTEMPTS || typeof code !== "string" || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
