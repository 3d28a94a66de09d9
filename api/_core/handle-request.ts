/**
 * The runtime-agnostic request core. Every request runs the same steps, each in its own file:
 * unadmitted (a CORS preflight, the health check: no key), admit (key, rate limit, entitlement),
 * serve (route and parse, then the stored or composed body in the client's coding), respond (the
 * headers every response carries), log.
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
import { addCorsHeaders, allowedOrigin, type CorsOrigins } from "./cors.js";
import type { SnapshotSource } from "./format/snapshot-source.js";
import { requestLogger, type RequestLog } from "./log.js";
import { memoryRateLimiter, type RateDecision, type RateLimiter } from "./rate-limit.js";
import { finishResponse, type Outgoing } from "./respond.js";
import { ResponseCache, type CacheBudgets } from "./response-cache.js";
import { serve } from "./serve.js";
import { answerUnadmitted } from "./unadmitted.js";

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

/** One request on its way through the steps. */
interface Exchange {
  request: CoreRequest;
  requestId: string;
  /** When it arrived, when a log line will report its duration. */
  started: bigint | undefined;
}

export function createHandler(options: CoreOptions): Handler {
  const limiter = options.limiter ?? memoryRateLimiter();
  const now = options.now ?? (() => new Date());
  const cache = new ResponseCache(options.cacheBudgets);
  const pages = new PagePool();
  const log = requestLogger(options.onLog);

  /** The respond and log steps: CORS, the headers every response carries, one log line. */
  function respond(x: Exchange, outgoing: Outgoing, rate?: RateDecision, organization?: string): CoreResponse {
    const allowOrigin = options.corsOrigins && allowedOrigin(options.corsOrigins, headerOf(x.request, "origin"));
    if (allowOrigin && !outgoing.headers["access-control-allow-origin"]) addCorsHeaders(outgoing.headers, allowOrigin);
    const response = finishResponse(x.request.method, x.requestId, outgoing, rate);
    const { method, url } = x.request;
    const { status } = response;
    log?.write(x.started!, {
      requestId: x.requestId,
      method,
      url,
      status,
      bytes: response.body.length,
      organization,
      cache: outgoing.cache,
    });
    return response;
  }

  /** Any failure, as the error envelope; a 5xx is reported to onError. */
  function fail(x: Exchange, thrown: unknown, admission?: Admission): CoreResponse {
    const outgoing = errorResponse(thrown, x.requestId);
    if (outgoing.status >= 500) options.onError?.(x.requestId, thrown);
    return respond(x, outgoing, admission?.rate ?? outgoing.rate, admission?.organization.id);
  }

  /** The serve step (route, parse, find or compose the body in the client's coding), then respond. */
  function serveAdmitted(x: Exchange, admission: Admission): CoreResponse {
    try {
      const { request } = x;
      const conditions = {
        acceptEncoding: headerOf(request, "accept-encoding"),
        ifNoneMatch: headerOf(request, "if-none-match"),
      };
      const outgoing = serve({ method: request.method, url: request.url, conditions }, options.snapshots, cache, pages);
      return respond(x, outgoing, admission.rate, admission.organization.id);
    } catch (thrown) {
      return fail(x, thrown, admission);
    }
  }

  return (received) => {
    const x: Exchange = { request: inOriginForm(received), requestId: randomUUID(), started: log?.start() };
    let admission: Admission | Promise<Admission>;
    try {
      const unadmitted = answerUnadmitted(x.request, options.snapshots, options.corsOrigins);
      if (unadmitted) return respond(x, unadmitted);
      admission = admit(authorizationOf(x.request), options.access, limiter, now());
    } catch (thrown) {
      return fail(x, thrown);
    }
    if (!(admission instanceof Promise)) return serveAdmitted(x, admission);
    return admission.then(
      (admitted) => serveAdmitted(x, admitted),
      (thrown) => fail(x, thrown),
    );
  };
}
