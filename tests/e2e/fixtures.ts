import { randomUUID } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";

export const DEMO = {
  admin: { username: "admin", password: "admin123", name: "Олена Коваленко", email: "admin@nauka-ua.example" },
  editor: { username: "editor", password: "editor123", name: "Андрій Мельник", email: "editor@nauka-ua.example" },
  reporter: { username: "reporter", password: "reporter123", name: "Марія Шевчук", email: "reporter@nauka-ua.example" },
} as const;

/** Signs in through the login screen as one of the demo users and waits for the dashboard. */
export async function signIn(page: Page, role: keyof typeof DEMO = "admin", redirectTo?: string) {
  const { username, password } = DEMO[role];
  await page.goto(redirectTo ? `/admin/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/admin/login");
  await page.getByLabel("Ім'я користувача").fill(username);
  await page.getByLabel("Пароль").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(redirectTo ?? "/admin/dashboard");
}

/** A username no other test uses (lockout tests must not lock shared accounts). */
export const uniqueName = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export const test = base;
export { expect };
