import { z } from "zod";

// The six-digit code from an authenticator app, as both the sign-in's second step and the
// enrolment's confirmation read it (spaces and dashes a person types are dropped).

const REQUIRED = "Обов'язкове поле";

/** A form's `code` field: six digits once spaces and dashes are dropped. */
export const TotpCodeSchema = z.object({
  code: z
    .string({ required_error: REQUIRED, invalid_type_error: REQUIRED })
    .transform((v) => v.replace(/[\s-]/g, ""))
    .pipe(
      z
        .string()
        .min(1, "Введіть код із застосунку")
        .regex(/^\d{6}$/, "Код має складатися з 6 цифр"),
    ),
});
