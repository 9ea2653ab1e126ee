import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { authenticate, ENROL_FIRST, LoginSchema, verifySecondStep } from "~/services/auth.server";
import { clientAddress, createSessionToken } from "~/services/session.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

export const loader = () => methodNotAllowed(["POST"]);

// docs/decisions/023: a person with a second factor sends `otp` too (a 6-digit code from their app
// or one of their recovery codes). Without it the answer is 401 `{detail, otp_required: true}`, so
// a client knows to ask for one; a wrong one is 401 with the same flag and counts towards the lockout.
const ApiLoginSchema = LoginSchema.extend({
  otp: z.string({ invalid_type_error: "Має бути рядком" }).trim().min(1, "Обов'язкове поле").max(64, "Не довше 64 символів").optional(),
});

const OTP_REQUIRED = "Потрібен код двофакторної перевірки: надішліть його в полі otp.";

/** POST /api/auth/login {username, password, otp?} → { access_token, token_type: "bearer" } (DESIGN §6). */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { username, password, otp } = await parseJsonBody(request, ApiLoginSchema);
  const result = await authenticate({ username, password, request });
  if (!result.ok) return refusal(result);
  if (result.next === "enrol") return apiError(403, ENROL_FIRST);
  if (result.next === "code") {
    if (!otp) return apiJson({ detail: OTP_REQUIRED, otp_required: true }, { status: 401 });
    const second = await verifySecondStep({ user: result.user, code: otp, request });
    if (!second.ok) {
      return second.status === 401 ? apiJson({ detail: second.message, otp_required: true }, { status: 401 }) : refusal(second);
    }
  }
  const token = await createSessionToken({
    userId: result.user.id,
    kind: "bearer",
    userAgent: request.headers.get("User-Agent"),
    ip: clientAddress(request),
  });
  return apiJson({ access_token: token, token_type: "bearer" });
});

function refusal(result: { status: number; message: string; retryAfter?: number }) {
  return apiError(result.status, result.message, { headers: result.retryAfter ? { "Retry-After": String(result.retryAfter) } : undefined });
}
