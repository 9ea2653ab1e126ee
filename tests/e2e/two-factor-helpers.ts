import { AxeBuilder } from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { generate } from "otplib";
import { DEMO, expect, uniqueName } from "./fixtures";

// Issue 25 (docs/decisions/023): what the two-factor specs share. Each spec makes staff accounts of
// its own (two-factor and sessions change an account; the demo accounts are shared).

export interface Staff {
  username: string;
  password: string;
}

/** A new staff account of `role`, made through the API as the demo admin. */
export async function newStaff(request: APIRequestContext, role: "admin" | "editor" | "reporter" = "reporter"): Promise<Staff> {
  const login = await request.post("/api/auth/login", { data: { username: DEMO.admin.username, password: DEMO.admin.password } });
  expect(login.status()).toBe(200);
  const token = (await login.json()).access_token as string;
  const username = uniqueName(`tf-${role}`).toLowerCase();
  const password = "Ясен-пень 42 шипшина";
  const created = await request.post("/api/users/", {
    headers: { Authorization: `Bearer ${token}` },
    data: { username, email: `${username}@nauka-ua.example`, full_name: "Двофакторний Тест", role, password },
  });
  expect(created.status()).toBe(201);
  return { username, password };
}

/** The password step of the sign-in screen. */
export async function enterPassword(page: Page, staff: Staff) {
  await page.goto("/admin/login");
  await page.getByLabel("Ім'я користувача").fill(staff.username);
  await page.getByLabel("Пароль").fill(staff.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The code an authenticator app shows for `key`, `stepsAhead` steps of 30 s from now. */
export const codeFor = (key: string, stepsAhead = 0) => generate({ secret: key, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

/**
 * Enrols the signed-in person on /admin/profile/two-factor the way they would: start, read the key
 * shown as text under the QR code, type the app's code. Answers the key and the ten recovery codes.
 */
export async function enrolOnPage(page: Page, { axe = false } = {}): Promise<{ key: string; codes: string[] }> {
  await page.getByRole("button", { name: "Почати налаштування" }).click();
  await expect(page.getByRole("img", { name: /QR-код для застосунку автентифікації/ })).toBeVisible();
  if (axe) await expectNoSeriousAxeViolations(page);
  const key = (await page.locator("#totp-key").textContent())!.replace(/\s/g, "");
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  const field = page.getByLabel("Код із застосунку");
  await expect(field).toHaveAttribute("autocomplete", "one-time-code");
  await expect(field).toHaveAttribute("inputmode", "numeric");
  await field.fill(await codeFor(key));
  await page.getByRole("button", { name: "Підтвердити й увімкнути" }).click();
  await expect(page.getByRole("heading", { name: "Двофакторну перевірку увімкнено", level: 2 })).toBeVisible();
  const codes = await page.getByRole("list", { name: "Коди відновлення" }).getByRole("listitem").allTextContents();
  expect(codes).toHaveLength(10);
  if (axe) await expectNoSeriousAxeViolations(page);
  return { key, codes: codes.map((c) => c.trim()) };
}

/** No serious or critical axe violations on the page (it needs JavaScript in the page to run). */
export async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}
