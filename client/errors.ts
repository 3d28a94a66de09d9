/** The error every failed call throws: the API's error envelope, typed. */
import type { ErrorCode } from "./types.js";

/** `invalid_response`: the answer was not the API's JSON (a proxy's error page, a cut connection). */
export type ClientErrorCode = ErrorCode | "invalid_response";

export class ApiError extends Error {
  override readonly name = "ApiError";

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The spec's error code, or invalid_response when the body was not the error envelope. */
    readonly code: ClientErrorCode,
    message: string,
    /** The id to quote when reporting a problem: error.requestId, else the X-Request-Id header. */
    readonly requestId?: string,
    /** error.details, e.g. { parameter: "limit" } on a 400. */
    readonly details?: Record<string, unknown>,
    /** Seconds to wait before retrying, from Retry-After (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /**
   * Where an iterator stopped: the cursor of the page it could not fetch (undefined: the first
   * page). Pass it as `cursor` to the same iterator, with the same filters, to resume there.
   */
  cursor?: string;
}

const CODES: readonly string[] = [
  "bad_request",
  "database_unavailable",
  "entitlement_required",
  "forbidden",
  "internal_error",
  "not_found",
  "rate_limited",
  "unauthorized",
] satisfies readonly ErrorCode[];

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Turns a non-200 answer into an ApiError, trusting only what the envelope really holds. */
export function toApiError(status: number, headers: Headers, text: string): ApiError {
  const requestId = headers.get("x-request-id") ?? undefined;
  const retry = Number(headers.get("retry-after"));
  const retryAfter = headers.has("retry-after") && Number.isFinite(retry) ? retry : undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const error = isObject(body) ? body.error : undefined;
  if (
    !isObject(error) ||
    typeof error.code !== "string" ||
    !CODES.includes(error.code) ||
    typeof error.message !== "string"
  ) {
    return new ApiError(
      status,
      "invalid_response",
      `HTTP ${status}: the response is not the API's error envelope`,
      requestId,
      undefined,
      retryAfter,
    );
  }
  return new ApiError(
    status,
    error.code as ErrorCode,
    error.message,
    typeof error.requestId === "string" ? error.requestId : requestId,
    isObject(error.details) ? error.details : undefined,
    retryAfter,
  );
}
