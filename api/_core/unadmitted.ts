/**
 * Requests answered before admission, without a key: a CORS preflight from an allowed origin
 * (decision: CORS) and the health check (decision: health check). Anything else goes on to admit.
 */
import { allowedOrigin, preflightHeaders, type CorsOrigins } from "./cors.js";
import { headerOf, type CoreRequest } from "./exchange.js";
import type { SnapshotSource } from "./format/snapshot-source.js";
import { checkHealth, isHealthCheck } from "./health.js";
import type { Outgoing } from "./respond.js";

/** The answer to a request that needs no key, or undefined; throws the health check's failure. */
export function answerUnadmitted(
  request: CoreRequest,
  snapshots: SnapshotSource,
  corsOrigins: CorsOrigins | undefined,
): Outgoing | undefined {
  if (request.method === "OPTIONS" && corsOrigins && request.headers["access-control-request-method"] !== undefined) {
    const allowOrigin = allowedOrigin(corsOrigins, headerOf(request, "origin"));
    // Any other OPTIONS goes on as a request (a 401 without a key).
    if (allowOrigin) return { status: 204, headers: preflightHeaders(allowOrigin), body: Buffer.alloc(0) };
  }
  if (isHealthCheck(request.url)) return checkHealth(request.method, snapshots);
  return undefined;
}
