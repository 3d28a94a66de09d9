/**
 * The headers that differ from one caller to the next: the request id, the organization's rate
 * limit, CORS for the caller's origin, and Vary. They are never part of a cached response
 * (decision: CDN-cached bodies): whoever admits the request adds them to whatever answers it, the
 * request core on the local server and the gateway (middleware) on Vercel, through this one function.
 */
import { EXPOSED_HEADERS } from "./cors.js";
import type { RateDecision } from "./rate-limit.js";

export interface Caller {
  requestId: string;
  /** The rate-limit decision, once admission has counted the request. */
  rate?: RateDecision | undefined;
  /** Access-Control-Allow-Origin for the caller's Origin, when CORS allows it. */
  allowOrigin?: string | undefined;
}

/** Every answer to a request for /v1 depends on its key and is sent in the coding it accepts. */
const VARY = "Authorization, Accept-Encoding";

/** RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers-10. */
function addRateHeaders(headers: Record<string, string>, rate: RateDecision): void {
  headers["ratelimit-policy"] = `"org";q=${rate.limit};w=${rate.windowSeconds}`;
  headers.ratelimit = `"org";r=${rate.remaining};t=${rate.resetSeconds}`;
}

export function addCallerHeaders(headers: Record<string, string>, caller: Caller): Record<string, string> {
  headers["x-request-id"] = caller.requestId;
  if (caller.rate) addRateHeaders(headers, caller.rate);
  headers.vary = VARY;
  if (caller.allowOrigin !== undefined) {
    headers["access-control-allow-origin"] = caller.allowOrigin;
    headers["access-control-expose-headers"] = EXPOSED_HEADERS;
    // The answer differs by Origin: a cache must keep them apart.
    headers.vary = `${VARY}, Origin`;
  }
  return headers;
}
