import { describe, expect, it } from "vitest";
import { z } from "zod";
import { LoginSchema } from "../../app/services/auth.server";
import { checkbox, fieldErrors, formFailure, parseForm } from "../../app/utils/forms.server";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
};

describe("the form layer", () => {
  const Schema = z
    .object({ name: z.string().min(1, "Обов'язкове поле"), password: z.string().min(8, "Пароль занадто короткий"), public: checkbox() })
    .refine((v) => v.name !== "root", "Недоступне ім'я");

  it("parses FormData like form.get (first value per name), checkboxes as booleans", () => {
    const parsed = parseForm(
      Schema,
      form([
        ["name", "ada"],
        ["name", "bob"],
        ["password", "12345678"],
      ]),
    );
    expect(parsed).toEqual({ ok: true, data: { name: "ada", password: "12345678", public: false } });
  });

  it("fails with one message per field, the submitted values without passwords, and a form-level message", () => {
    const short = parseForm(
      Schema,
      form([
        ["name", ""],
        ["password", "short"],
        ["public", "on"],
      ]),
    );
    expect(short).toEqual({ ok: false, values: { name: "", public: "on" }, errors: { name: "Обов'язкове поле", password: "Пароль занадто короткий" } });
    const root = parseForm(
      Schema,
      form([
        ["name", "root"],
        ["password", "12345678"],
      ]),
    );
    expect(root).toEqual({ ok: false, values: { name: "root" }, errors: {}, formError: "Недоступне ім'я" });
  });

  it('maps zod errors the same way for the JSON door ("_" for the whole body)', () => {
    const result = LoginSchema.safeParse({ username: " ", password: 5 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrors(result.error)).toEqual({ username: "Обов'язкове поле", password: "Має бути рядком" });
  });

  it("answers a failure with its status, values and errors", async () => {
    const response = formFailure({ values: { name: "" }, errors: { name: "Обов'язкове поле" } }, 422, { intent: "create" });
    expect(response.init?.status).toBe(422);
    expect(response.data).toEqual({ intent: "create", ok: false, values: { name: "" }, errors: { name: "Обов'язкове поле" }, formError: undefined });
  });
});
