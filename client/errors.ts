/** The error every failed call throws: the API's error envelope, an answer that is not it, or no answer at all. */
import type { ErrorCode } from "./types.js";

/**
 * `invalid_response`: the answer was not the API's JSON (a proxy's error page, a cut connection);
 * `network_error`: no answer came (refused, reset, timed out, DNS, TLS).
 */
export type ClientErrorCode = ErrorCode | "invalid_response" | "network_error";

/** Who failed: the API (its error envelope), something answering in its place, or the network. */
export type ErrorKind = "api" | "invalid_response" | "network";

/**
 * A connection lost after the request was sent (decision: the typed client's failures): a server
 * restarting, or a kept-alive connection closed under the request. Worth trying again.
 */
const LOST_MID_REQUEST_CODES: readonly string[] = [
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
];

/**
 * The system calls that fail before a request leaves: no server took it, so there is no overload
 * to wait out (a closed port, a wrong host, a host that never answers): the caller hears at once.
 */
const BEFORE_SENDING_SYSCALLS: readonly string[] = ["connect", "getaddrinfo"];

/** Statuses that say "not now" rather than "not this": the API's own, and a gateway's in front of it. */
const TRANSIENT_STATUSES: readonly number[] = [429, 502, 503, 504];

export class ApiError extends Error {
  override readonly name = "ApiError";
  /** Who failed; `network` has status 0 and fetch's own error as `cause`. */
  readonly kind: ErrorKind;

  constructor(
    /** The HTTP status; 0 when no answer came (kind `network`). */
    readonly status: number,
    /** The spec's error code, or invalid_response / network_error when the API's envelope never came. */
    readonly code: ClientErrorCode,
    message: string,
    /** The id to quote when reporting a problem: error.requestId, else the X-Request-Id header. */
    readonly requestId?: string,
    /** error.details, e.g. { parameter: "limit" } on a 400. */
    readonly details?: Record<string, unknown>,
    /** Seconds to wait before retrying, from Retry-After (429, 503). */
    readonly retryAfter?: number,
    /** `cause`: the error underneath (fetch's, for a network failure). */
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.kind = code === "network_error" ? "network" : code === "invalid_response" ? "invalid_response" : "api";
  }

  /**
   * The changes feed's sync token is too old for the history the service keeps, or of a history
   * that began afresh (HTTP 410): start a full copy (`changes()` without `since`).
   */
  get syncTokenExpired(): boolean {
    return this.status === 410 && this.details?.reason === "sync_token_expired";
  }

  /**
   * Where an iterator stopped: the cursor of the page it could not fetch (undefined: the first
   * page). Pass it as `cursor` to the same iterator, with the same filters, to resume there.
   */
  cursor?: string;

  /**
   * True when the same request may succeed later (iterators retry these): 429, 502–504, a connection
   * lost after the request was sent; never a failure to connect.
   */
  get transient(): boolean {
    if (this.kind === "network") return isLostMidRequest(this.cause);
    return TRANSIENT_STATUSES.includes(this.status);
  }
}

/** fetch's error and the errors under it, outermost first (Node wraps the socket's error, which may wrap more). */
function causesOf(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let at = error; at instanceof Error && chain.length < 5; at = at.cause) chain.push(at);
  return chain;
}

/** An error of Node's sockets as far as the client reads it. */
type SystemError = Error & { code?: unknown; syscall?: unknown };

/** Whether the connection was lost after the request was sent, judged by the innermost error's code and call. */
function isLostMidRequest(error: unknown): boolean {
  const causes = causesOf(error) as SystemError[];
  // Node 22+ refuses a name with several addresses by an AggregateError: its parts hold the calls.
  const parts = causes.flatMap((at) => (at instanceof AggregateError ? (at.errors as SystemError[]) : [at]));
  if (parts.some((at) => BEFORE_SENDING_SYSCALLS.includes(String(at.syscall)))) return false;
  const code = causes.findLast((at) => typeof at.code === "string")?.code;
  return LOST_MID_REQUEST_CODES.includes(String(code));
}

/** The innermost message: "connect ECONNREFUSED 127.0.0.1:3000" says more than fetch's "fetch failed". */
function causeMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (const at of causesOf(error)) {
    if (at.message) message = at.message;
    // Node 22's refusal at every address has no message of its own, only its parts'.
    else if (at instanceof AggregateError) message = at.errors.map((part) => String(part?.message ?? part)).join("; ");
  }
  return message;
}

/** fetch failed, or the body stopped arriving: an ApiError of kind network, with the cause kept. */
export function networkError(method: string, url: string, error: unknown, status = 0): ApiError {
  const where = url.split("?")[0];
  return new ApiError(
    status,
    "network_error",
    `${method} ${where}: no answer (${causeMessage(error)}); is the server running and baseUrl right?`,
    undefined,
    undefined,
    undefined,
    { cause: error },
  );
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
