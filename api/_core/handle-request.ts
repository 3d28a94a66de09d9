/**
 * The runtime-agnostic request core. Every request runs the same steps, each in its own file:
 * admit (key, rate limit, entitlement), serve (route and parse, then the stored or composed body
 * in the client's coding), respond (the headers every response carries), log.
 */
import { randomUUID } from "node:crypto";
import type { AccessSource } from "./access.js";
import { admit, type Admission } from "./admit.js";
import { errorResponse } from "./error-response.js";
import {
  authorizationOf,
  headerOf,
  inOriginForm,
  type CoreRequest,
  type CoreResponse,
  type Handler,
} from "./exchange.js";
import { PagePool } from "./format/page-buffer.js";
import { checkHealth, isHealthCheck } from "./health.js";
import { addCorsHeaders, allowedOrigin, preflightHeaders, type CorsOrigins } from "./cors.js";
import type { SnapshotSource } from "./format/snapshot-source.js";
import { requestLogger, type RequestLog } from "./log.js";
import { memoryRateLimiter, type RateDecision, type RateLimiter } from "./rate-limit.js";
import { finishResponse, type Outgoing } from "./respond.js";
import { ResponseCache, type CacheBudgets } from "./response-cache.js";
import { serve } from "./serve.js";

export type { CoreRequest, CoreResponse, Handler } from "./exchange.js";
export type { RequestLog } from "./log.js";

export interface CoreOptions {
  snapshots: SnapshotSource;
  access: AccessSource;
  limiter?: RateLimiter;
  now?: () => Date;
  cacheBudgets?: CacheBudgets;
  onLog?: (entry: RequestLog) => void;
  onError?: (requestId: string, error: unknown) => void;
  /** Origins allowed to call from a browser (CORS_ORIGINS); undefined: no CORS headers at all. */
  corsOrigins?: CorsOrigins;
}

export function createHandler(options: CoreOptions): Handler {
  const limiter = options.limiter ?? memoryRateLimiter();
  const now = options.now ?? (() => new Date());
  const cache = new ResponseCache(options.cacheBudgets);
  const pages = new PagePool();
  const log = requestLogger(options.onLog);

  function respond(
    request: CoreRequest,
    requestId: string,
    started: bigint | undefined,
    outgoing: Outgoing,
    rate?: RateDecision,
    organization?: string,
  ): CoreResponse {
    const allowOrigin = options.corsOrigins && allowedOrigin(options.corsOrigins, headerOf(request, "origin"));
    if (allowOrigin) addCorsHeaders(outgoing.headers, allowOrigin);
    const response = finishResponse(request.method, requestId, outgoing, rate);
    log?.write(started!, {
      requestId,
      method: request.method,
      url: request.url,
      status: response.status,
      bytes: response.body.length,
      organization,
      cache: outgoing.cache,
    });
    return response;
  }

  function fail(
    request: CoreRequest,
    requestId: string,
    started: bigint | undefined,
    thrown: unknown,
    admission?: Admission,
  ): CoreResponse {
    const outgoing = errorResponse(thrown, requestId);
    if (outgoing.status >= 500) options.onError?.(requestId, thrown);
    return respond(request, requestId, started, outgoing, admission?.rate ?? outgoing.rate, admission?.organization.id);
  }

  function serveAdmitted(
    request: CoreRequest,
    requestId: string,
    started: bigint | undefined,
    admission: Admission,
  ): CoreResponse {
    try {
      const conditions = {
        acceptEncoding: headerOf(request, "accept-encoding"),
        ifNoneMatch: headerOf(request, "if-none-match"),
      };
      const outgoing = serve({ method: request.method, url: request.url, conditions }, options.snapshots, cache, pages);
      return respond(request, requestId, started, outgoing, admission.rate, admission.organization.id);
    } catch (thrown) {
      return fail(request, requestId, started, thrown, admission);
    }
  }

  return (received) => {
    const request = inOriginForm(received);
    const requestId = randomUUID();
    const started = log?.start();
    if (
      request.method === "OPTIONS" &&
      options.corsOrigins &&
      request.headers["access-control-request-method"] !== undefined
    ) {
      const allowOrigin = allowedOrigin(options.corsOrigins, headerOf(request, "origin"));
      // A preflight from an allowed origin; any other OPTIONS goes on as a request (a 401 without a key).
      if (allowOrigin) {
        const outgoing: Outgoing = { status: 204, headers: preflightHeaders(allowOrigin), body: Buffer.alloc(0) };
        return respond({ ...request, headers: {} }, requestId, started, outgoing);
      }
    }
    if (isHealthCheck(request.url)) {
      try {
        return respond(request, requestId, started, checkHealth(request.method, options.snapshots));
      } catch (thrown) {
        return fail(request, requestId, started, thrown);
      }
    }
    let admission: Admission | Promise<Admission>;
    try {
      admission = admit(authorizationOf(request), options.access, limiter, now());
    } catch (thrown) {
      return fail(request, requestId, started, thrown);
    }
    if (!(admission instanceof Promise)) return serveAdmitted(request, requestId, started, admission);
    return admission.then(
      (admitted) => serveAdmitted(request, requestId, started, admitted),
      (thrown) => fail(request, requestId, started, thrown),
    );
  };
}
