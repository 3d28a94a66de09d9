/**
 * The one API error type. Its body is the spec's error envelope (part 7); anything that is not
 * an ApiError becomes a 500 internal_error with no internals in the body.
 */

/** Every code of the spec's error envelope (part 7), in its order. */
export const ERROR_CODES = [
  "bad_request",
  "database_unavailable",
  "entitlement_required",
  "forbidden",
  "internal_error",
  "not_found",
  "rate_limited",
  "unauthorized",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    // An ApiError is an answer, not a bug: no one reads its stack, and capturing one was the
    // largest cost of a 401.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }

  /** The envelope clients see; messages are capped at the spec's 300 characters. */
  toBody(requestId: string): Buffer {
    const error: Record<string, unknown> = { code: this.code, message: this.message.slice(0, 300), requestId };
    if (this.details) error.details = this.details;
    return Buffer.from(JSON.stringify({ error }));
  }
}

/** A 400 about one query or path parameter, named in the message and in details. */
export function badParameter(parameter: string, message: string): ApiError {
  return new ApiError(400, "bad_request", `${parameter}: ${message}`, { parameter });
}

/** The snapshot is missing or unreadable: a 503 the operator fixes by building or deploying. */
export class SnapshotUnavailableError extends Error {}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof SnapshotUnavailableError) {
    return new ApiError(503, "database_unavailable", "The listings data is temporarily unavailable; retry shortly.", undefined, {
      "retry-after": "5",
    });
  }
  return new ApiError(500, "internal_error", "An unexpected error occurred; quote the request id when reporting it.");
}
