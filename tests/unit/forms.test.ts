import { describe, expect, it } from "vitest";
import { z } from "zod";
import { LoginSchema } from "../../app/services/auth.server";
import { checkbox, fieldErrors, formFailure, formValues, parseForm } from "../../app/utils/forms.server";
import { formIntent } from "../../app/utils/intent";

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

describe("prototype keys in forms (issue 13)", () => {
  it("a field named toString or constructor is a field like any other; __proto__ never reaches an object", () => {
    const input = form([
      ["toString", "a"],
      ["constructor", "b"],
      ["__proto__", "c"],
      ["hasOwnProperty", "d"],
      ["title", "e"],
    ]);
    const values = formValues(input);
    expect(values).toEqual({ toString: "a", constructor: "b", hasOwnProperty: "d", title: "e" });
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    const parsed = parseForm(z.object({ constructor: z.string(), title: z.string() }), input);
    expect(parsed).toEqual({ ok: true, data: { constructor: "b", title: "e" } });
  });

  it("formIntent accepts only the action's own intents", () => {
    const intents = ["publish", "unpublish", "delete"] as const;
    for (const forged of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "", "PUBLISH", "publish "]) {
      expect(formIntent(form([["intent", forged]]), intents), forged).toBeUndefined();
    }
    expect(formIntent(form([]), intents)).toBeUndefined();
    expect(formIntent(form([["intent", "delete"]]), intents)).toBe("delete");
    // The first value counts, as form.get does.
    expect(
      formIntent(
        form([
          ["intent", "publish"],
          ["intent", "toString"],
        ]),
        intents,
      ),
    ).toBe("publish");
  });
});
