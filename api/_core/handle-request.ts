/**
 * The runtime-agnostic request core: a plain request in, status, headers and bytes out. Each
 * request runs the same steps: admit (key, rate limit, entitlement), serve (route, parse, find
 * or compose the body, pick its coding), finish (the headers every response carries), log.
 */
import { randomUUID } from "node:crypto";
import type { AccessSource } from "./access.js";
import { admit, type Admission } from "./admit.js";
import { toApiError } from "./errors.js";
import { PagePool } from "./format/page-buffer.js";
import type { SnapshotSource } from "./format/snapshot-source.js";
import { memoryRateLimiter, type RateDecision, type RateLimiter } from "./rate-limit.js";
import { ResponseCache, type CacheBudgets } from "./response-cache.js";
import { JSON_TYPE, type Outgoing } from "./respond.js";
import { originForm } from "./route.js";
import { serve } from "./serve.js";

export interface CoreRequest {
  method: string;
  /** Path and query as sent, still percent-encoded. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /**
   * Call once the body has been written (or will never be): its memory goes back to a pool. Until
   * then the body stays valid; a response never released is collected as usual.
   */
  release?: () => void;
}

/** One line of the request log; never carries the key. */
export interface RequestLog {
  requestId: string;
  organization?: string;
  method: string;
  path: string;
  status: number;
  bytes: number;
  durationMs: number;
  cache?: string;
}

export interface CoreOptions {
  snapshots: SnapshotSource;
  access: AccessSource;
  limiter?: RateLimiter;
  now?: () => Date;
  cacheBudgets?: CacheBudgets;
  onLog?: (entry: RequestLog) => void;
  onError?: (requestId: string, error: unknown) => void;
}

const EMPTY = Buffer.alloc(0);

function header(request: CoreRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The Authorization field: one value, or every value when the request repeats it. */
function authorizationOf(request: CoreRequest): string | readonly string[] | undefined {
  const value = request.headers.authorization;
  return Array.isArray(value) && value.length === 1 ? value[0] : value;
}

/** Milliseconds since `started`, to the microsecond (process.hrtime: `performance` loads perf_hooks, ~1.5 ms of a cold start). */
function elapsedMs(started: bigint): number {
  return Number((process.hrtime.bigint() - started) / 1000n) / 1000;
}

/** RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers-10. */
function addRateHeaders(headers: Record<string, string>, rate: RateDecision): void {
  headers["ratelimit-policy"] = `"org";q=${rate.limit};w=${rate.windowSeconds}`;
  headers.ratelimit = `"org";r=${rate.remaining};t=${rate.resetSeconds}`;
}

/** The error envelope (spec §7) for anything thrown, carrying the request's id. */
export function errorResponse(thrown: unknown, requestId: string): Outgoing & { rate?: RateDecision } {
  const error = toApiError(thrown);
  return {
    status: error.status,
    headers: { "content-type": JSON_TYPE, "cache-control": "no-store", ...error.headers },
    body: error.toBody(requestId),
    rate: error.rate,
  };
}

/** The core as a function: synchronous unless the rate limiter is not (a shared store). */
export type Handler = (request: CoreRequest) => CoreResponse | Promise<CoreResponse>;

export function createHandler(options: CoreOptions): Handler {
  const limiter = options.limiter ?? memoryRateLimiter();
  const now = options.now ?? (() => new Date());
  const cache = new ResponseCache(options.cacheBudgets);
  const pages = new PagePool();

  function finish(
    request: CoreRequest,
    requestId: string,
    started: bigint | undefined,
    outgoing: Outgoing,
    admission?: Admission,
    rate?: RateDecision,
  ): CoreResponse {
    const headers = outgoing.headers;
    headers["x-request-id"] = requestId;
    headers["x-content-type-options"] = "nosniff";
    const decision = admission?.rate ?? rate;
    if (decision) addRateHeaders(headers, decision);
    if (outgoing.status !== 304) headers["content-length"] = String(outgoing.body.length);
    const bodyless = request.method === "HEAD" || outgoing.status === 304;
    const body = bodyless ? EMPTY : outgoing.body;
    if (bodyless) outgoing.release?.();
    options.onLog?.({
      requestId,
      organization: admission?.organization.id,
      method: request.method,
      path: request.url.split("?")[0]!.slice(0, 300),
      status: outgoing.status,
      bytes: body.length,
      durationMs: elapsedMs(started!),
      cache: outgoing.cache,
    });
    return { status: outgoing.status, headers, body, release: bodyless ? undefined : outgoing.release };
  }

  function failed(
    request: CoreRequest,
    requestId: string,
    started: bigint | undefined,
    thrown: unknown,
    admission?: Admission,
  ): CoreResponse {
    const outgoing = errorResponse(thrown, requestId);
    if (outgoing.status >= 500) options.onError?.(requestId, thrown);
    return finish(request, requestId, started, outgoing, admission, outgoing.rate);
  }

  function served(
    request: CoreRequest,
    requestId: string,
    started: bigint | undefined,
    admission: Admission,
  ): CoreResponse {
    try {
      const conditions = {
        acceptEncoding: header(request, "accept-encoding"),
        ifNoneMatch: header(request, "if-none-match"),
      };
      return finish(
        request,
        requestId,
        started,
        serve({ method: request.method, url: request.url, conditions }, options.snapshots, cache, pages),
        admission,
      );
    } catch (thrown) {
      return failed(request, requestId, started, thrown, admission);
    }
  }

  return (received) => {
    const url = originForm(received.url);
    const request = url === received.url ? received : { ...received, url };
    // The clock is read only for the log line that reports it.
    const started = options.onLog ? process.hrtime.bigint() : undefined;
    const requestId = randomUUID();
    let admission: Admission | Promise<Admission>;
    try {
      admission = admit(authorizationOf(request), options.access, limiter, now());
    } catch (thrown) {
      return failed(request, requestId, started, thrown);
    }
    if (admission instanceof Promise) {
      return admission.then(
        (admitted) => served(request, requestId, started, admitted),
        (thrown) => failed(request, requestId, started, thrown),
      );
    }
    return served(request, requestId, started, admission);
  };
}
