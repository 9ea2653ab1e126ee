/**
 * A broken domain rule (not found, not allowed, conflict) raised by a model function. Routes turn
 * it into their own envelope: a JSON `{detail, errors}` for the API, a message on the screen.
 */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 413 | 422,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}
