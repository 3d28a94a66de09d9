/**
 * The one API error type. Its body is the spec's error envelope (§7); anything that is not an
 * ApiError becomes a 500 internal_error with no internals in the body.
 */
import { SnapshotError } from "../format/primitives/errors.js";
import type { RateDecision } from "../gate/rate-limit.js";
import { clipText } from "./text.js";

/** Every code of the spec's error envelope (§7), in its order. */
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

/** Spec §7: error.message is 1..300 characters (code points, as JSON Schema counts them). */
const MAX_MESSAGE = 300;
/** A parameter name echoed in a message and in details.parameter: the longest real one is 11. */
const MAX_PARAMETER_ECHO = 64;

export class ApiError {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
    /** The rate-limit decision already made for the caller, when admission got that far (its headers go out). */
    readonly rate?: RateDecision,
  ) {}

  /** The envelope clients see; messages are capped at the spec's 300 characters. */
  toBody(requestId: string): Buffer {
    const error: Record<string, unknown> = { code: this.code, message: clipText(this.message, MAX_MESSAGE), requestId };
    if (this.details) error.details = this.details;
    return Buffer.from(JSON.stringify({ error }));
  }
}

/** A 400 about one query or path parameter, named in the message and in details. */
export function badParameter(parameter: string, message: string): ApiError {
  const echoed = clipText(parameter, MAX_PARAMETER_ECHO);
  return new ApiError(400, "bad_request", `${echoed}: ${message}`, { parameter: echoed });
}

/** The 404 for a path that is no endpoint (the internal prefix included, to anyone but the gateway). */
/** An unknown id echoed in a 404: whole up to the spec's 160, so the message stays within 300. */
const MAX_ID_ECHO = 160;

/** A 404 for an id no record has (spec §4.4, §4.6): `singular` names the record's kind. */
export function recordNotFound(singular: string, id: string): ApiError {
  return new ApiError(404, "not_found", `No ${singular} has the id ${JSON.stringify(clipText(id, MAX_ID_ECHO))}.`);
}

export function unknownEndpoint(): ApiError {
  return new ApiError(404, "not_found", "No such endpoint; see the API reference at /.");
}

/** The methods every endpoint answers (decision: order of checks). */
export const ALLOWED_METHODS = "GET, HEAD";

/** The 405 for any other method, with Allow. */
export function methodNotAllowed(method: string): ApiError {
  return new ApiError(405, "bad_request", `Method ${method.slice(0, 20)} is not allowed; use GET or HEAD.`, undefined, {
    allow: ALLOWED_METHODS,
  });
}

/** Throws the 405 unless the request reads (GET or HEAD). */
export function requireReadMethod(method: string): void {
  if (method !== "GET" && method !== "HEAD") throw methodNotAllowed(method);
}

/**
 * An operating condition, not a bug, that makes answers a 503 until an operator acts (a deployment
 * without its gateway secret): its message says what to do and goes to the log, never to clients.
 */
export class ServiceUnavailable extends Error {
  override readonly name = "ServiceUnavailable";
}

export const INTERNAL_ERROR_MESSAGE = "An unexpected error occurred; quote the request id when reporting it.";

/** Any thrown value as the error the client is shown. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof SnapshotError || error instanceof ServiceUnavailable) {
    return new ApiError(
      503,
      "database_unavailable",
      "The listings data is temporarily unavailable; retry shortly.",
      undefined,
      { "retry-after": "5" },
    );
  }
  return new ApiError(500, "internal_error", INTERNAL_ERROR_MESSAGE);
}
