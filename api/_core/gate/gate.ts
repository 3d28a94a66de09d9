/**
 * The gate every request for /v1 passes, wherever it runs: in the request core (the local server;
 * a Vercel function reached without the gateway) and in the gateway middleware on Vercel, so the
 * two can never disagree (decision: CDN-cached bodies). A CORS preflight from an allowed origin is
 * answered without a key (decision: CORS); anything else is admitted or refused (key 401, rate
 * limit 429, entitlement 403: decision: order of checks) with the same bytes either way.
 */
import type { AccessSource } from "./access.js";
import type { RefusedKey } from "./access.js";
import type { Organization } from "./access-file.js";
import { admit, KnownKeyRefused, type Admission } from "./admit.js";
import { addCallerHeaders, type Caller } from "./caller-headers.js";
import { allowedOrigin, preflightHeaders, type CorsOrigins } from "./cors.js";
import { errorResponse } from "../respond/error-response.js";
import { authorizationOf, headerOf, type CoreRequest, type CoreResponse } from "../exchange.js";
import type { RateLimiter } from "./rate-limit.js";
import { isMcpTarget } from "../endpoints/mcp-path.js";
import { finishResponse } from "../respond/respond.js";

export interface GateOptions {
  access: AccessSource;
  limiter: RateLimiter;
  now: () => Date;
  /** Origins allowed to call from a browser (CORS_ORIGINS); undefined: no CORS headers at all. */
  corsOrigins?: CorsOrigins;
}

export type GateOutcome =
  /** `entitlements`: the organization's, for an answer that says which markets it may use (GET /markets). */
  | { admitted: true; caller: Caller; organization: string; entitlements: Organization }
  /**
   * The complete answer (a preflight or a refusal); `thrown` is what refused it; `organization`
   * is the key's, when the key was valid (a 429 or 403) or known and refused (a 401 with `key`).
   */
  | { admitted: false; answer: CoreResponse; organization?: string; key?: RefusedKey; thrown?: unknown };

/** The caller as far as it is known before admission: its request id and CORS origin. */
export function callerOf(request: CoreRequest, requestId: string, corsOrigins: CorsOrigins | undefined): Caller {
  // One shape for every caller (rate filled in on admission): the hot path allocates it once.
  const allowOrigin = corsOrigins && allowedOrigin(corsOrigins, headerOf(request, "origin"));
  return { requestId, rate: undefined, allowOrigin };
}

/** A failure as the error envelope with the caller's headers. */
export function refusal(method: string, thrown: unknown, caller: Caller): CoreResponse {
  const outgoing = errorResponse(thrown, caller.requestId);
  addCallerHeaders(outgoing.headers, { ...caller, rate: caller.rate ?? outgoing.rate });
  return finishResponse(method, caller.requestId, outgoing);
}

function preflight(
  request: CoreRequest,
  caller: Caller,
  corsOrigins: CorsOrigins | undefined,
): CoreResponse | undefined {
  if (request.method !== "OPTIONS" || !corsOrigins || caller.allowOrigin === undefined) return undefined;
  // Any other OPTIONS goes on as a request (a 401 without a key).
  if (request.headers["access-control-request-method"] === undefined) return undefined;
  const headers = preflightHeaders(caller.allowOrigin, isMcpTarget(request.url));
  const outgoing = { status: 204, headers, body: Buffer.alloc(0) };
  return finishResponse(request.method, caller.requestId, outgoing);
}

function decided(method: string, caller: Caller, admission: Admission): GateOutcome {
  caller.rate = admission.rate;
  const organization = admission.organization.id;
  if (admission.refusal) return refused(method, caller, admission.refusal, organization);
  return { admitted: true, caller, organization, entitlements: admission.organization };
}

function refused(method: string, caller: Caller, thrown: unknown, organization?: string): GateOutcome {
  const answer = refusal(method, thrown, caller);
  if (!(thrown instanceof KnownKeyRefused)) return { admitted: false, answer, organization, thrown };
  return { admitted: false, answer, organization: thrown.key.organization, key: thrown.key, thrown };
}

/**
 * Passes a request through the gate: synchronous unless the access data or the rate limiter is not.
 * `market` is the market the request is for (undefined in a single-market deployment): the entitlement
 * is checked for it here, before any cache or market's function sees the request (decision: markets).
 */
export function passGate(
  request: CoreRequest,
  requestId: string,
  options: GateOptions,
  market?: string,
): GateOutcome | Promise<GateOutcome> {
  const caller = callerOf(request, requestId, options.corsOrigins);
  const answered = preflight(request, caller, options.corsOrigins);
  if (answered) return { admitted: false, answer: answered };
  let admission: Admission | Promise<Admission>;
  try {
    admission = admit(authorizationOf(request), options.access, options.limiter, options.now(), market);
  } catch (thrown) {
    return refused(request.method, caller, thrown);
  }
  if (!(admission instanceof Promise)) return decided(request.method, caller, admission);
  return admission.then(
    (admitted) => decided(request.method, caller, admitted),
    (thrown: unknown) => refused(request.method, caller, thrown),
  );
}
