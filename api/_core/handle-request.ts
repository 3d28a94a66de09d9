/**
 * The runtime-agnostic request core: a plain request in, status, headers and bytes out.
 * Checks run in a gateway's order (v1 issue): 401 → 429 → 403 → 400 → 404, so a caller
 * without a valid key learns nothing else, not even whether an id exists.
 */
import { randomUUID } from "node:crypto";
import { isEntitled, type AccessSource } from "./access.js";
import type { Organization } from "./access-file.js";
import { composePage } from "./compose-page.js";
import { ApiError, toApiError } from "./errors.js";
import { DEFAULT_RATE_LIMIT, memoryRateLimiter, type RateDecision, type RateLimiter } from "./rate-limit.js";
import { codingBytes, etagOf } from "./body-file.js";
import { sendComposed, sendStored, JSON_TYPE, type ComposedBody, type Conditions, type Outgoing } from "./respond.js";
import { decodeId, matchRoute, parseListRequest, parseQuery, type Route } from "./route.js";
import { bodyKeyOf } from "./layout.js";
import { LruCache } from "./lru.js";
import type { CachedBody, SnapshotReader } from "./snapshot-reader.js";

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
}

/** One line of the request log (issue 5); never carries the key. */
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
  reader: SnapshotReader;
  access: AccessSource;
  limiter?: RateLimiter;
  now?: () => Date;
  onLog?: (entry: RequestLog) => void;
  onError?: (requestId: string, error: unknown) => void;
}

const ALLOWED_METHODS = "GET, HEAD";
const STORED_KEY_MEMO_CHARS = 4 * 2 ** 20;
/** Bytes of composed pages kept: ~150 pages of 100 showtimes. */
const COMPOSED_PAGE_CACHE_BYTES = 6 * 2 ** 20;
/** A memo entry's cost beyond its URL and bytes: the key or tag and the map's bookkeeping. */
const MEMO_ENTRY_OVERHEAD = 100;

/** A page composed for a URL, and the snapshot it was composed from. */
type ComposedPage = ComposedBody & { snapshotId: string };

/** What a composed page costs the cache: its URL, its bytes in every coding made, bookkeeping. */
function composedPageSize(url: string, page: ComposedPage): number {
  return url.length + MEMO_ENTRY_OVERHEAD + codingBytes(page);
}

/** Milliseconds since `started`, to the microsecond. process.hrtime rather than performance.now: the
 * `performance` global loads perf_hooks on first use, ~1.5 ms of a cold start. */
function elapsedMs(started: bigint): number {
  return Number((process.hrtime.bigint() - started) / 1000n) / 1000;
}

function header(request: CoreRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The bearer token, with the scheme word matched case-insensitively (RFC 9110 §11.1). */
function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(\S+) *$/.exec(authorization ?? "");
  return match && match[1]!.toLowerCase() === "bearer" ? match[2] : undefined;
}

function unauthorized(hasHeader: boolean): ApiError {
  const message = hasHeader
    ? "The API key is not valid (unknown, revoked or expired)."
    : "An API key is required: send the header Authorization: Bearer <API_KEY>.";
  const challenge = hasHeader ? 'Bearer realm="cinema-listings", error="invalid_token"' : 'Bearer realm="cinema-listings"';
  return new ApiError(401, "unauthorized", message, undefined, { "www-authenticate": challenge });
}

/** RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers-10. */
function rateHeaders(decision: RateDecision): Record<string, string> {
  return {
    "ratelimit-policy": `"org";q=${decision.limit};w=${decision.windowSeconds}`,
    ratelimit: `"org";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

export function createHandler(options: CoreOptions): (request: CoreRequest) => Promise<CoreResponse> {
  const limiter = options.limiter ?? memoryRateLimiter();
  const now = options.now ?? (() => new Date());
  /** Request URL → key (as latin1) of the stored body it was answered with, bounded by URL characters. */
  const storedKeys = new LruCache<string, string>(STORED_KEY_MEMO_CHARS);
  /** Request URL → the page composed for it: a hot composed page costs what a stored one does. */
  const composedPages = new LruCache<string, ComposedPage>(COMPOSED_PAGE_CACHE_BYTES);

  async function admit(request: CoreRequest, state: { organization?: Organization; rate?: RateDecision }): Promise<void> {
    const authorization = header(request, "authorization");
    const token = bearerToken(authorization);
    const check = token === undefined ? { ok: false as const } : options.access.current().checkKey(token, now());
    if (!check.ok) throw unauthorized(authorization !== undefined);
    state.organization = check.organization;
    const policy = check.organization.rateLimit ?? DEFAULT_RATE_LIMIT;
    state.rate = await limiter.hit(check.organization.id, policy, now().getTime());
    if (!state.rate.allowed) {
      const message = `Rate limit of ${policy.requests} requests per ${policy.windowSeconds} s exceeded; retry in ${state.rate.resetSeconds} s.`;
      throw new ApiError(429, "rate_limited", message, undefined, { "retry-after": String(state.rate.resetSeconds) });
    }
    if (!isEntitled(check.organization, now())) {
      throw new ApiError(403, "entitlement_required", "Your organization has no active paid entitlement for this API.");
    }
  }

  function serve(request: CoreRequest, route: Route, rawQuery: string): Outgoing {
    const conditions: Conditions = { acceptEncoding: header(request, "accept-encoding"), ifNoneMatch: header(request, "if-none-match") };
    const { reader } = options;
    const remember = (body: CachedBody) => reader.remember(body);
    // The hot path: a URL seen before names the same stored body (its key depends on the request
    // alone, not on the snapshot), so parsing, cursor checks and key hashing are skipped.
    const memo = storedKeys.get(request.url);
    if (memo) {
      reader.manifest();
      const stored = reader.bodyAt(memo);
      if (stored) return sendStored(stored, conditions, remember);
    }
    // Likewise a composed page: on the same snapshot, the same URL composes the same bytes.
    const composed = composedPages.get(request.url);
    if (composed && composed.snapshotId === reader.manifest().snapshotId) return sendComposedPage(request.url, composed, conditions);
    if (route.kind === "one") {
      parseQuery(rawQuery, []);
      const id = decodeId(route);
      // Throws the 503 when no snapshot is served, before a missing body could read as a 404.
      reader.manifest();
      const key = bodyKeyOf({ kind: "one", resource: route.resource, id });
      const stored = reader.bodyAt(key);
      const singular = route.resource === "cinemas" ? "cinema" : "film";
      if (!stored) throw new ApiError(404, "not_found", `No ${singular} has the id ${JSON.stringify(id).slice(0, 200)}.`);
      storedKeys.set(request.url, stored.cacheKey, request.url.length + MEMO_ENTRY_OVERHEAD);
      return sendStored(stored, conditions, remember);
    }
    const list = parseListRequest(route.resource, rawQuery);
    const manifest = reader.manifest();
    if (list.startsAfter === undefined && list.limit === manifest.defaultLimit) {
      const key = bodyKeyOf({ kind: "page", resource: list.resource, filters: list.filters, after: list.after ?? null });
      const stored = reader.bodyAt(key);
      if (stored) {
        storedKeys.set(request.url, stored.cacheKey, request.url.length + MEMO_ENTRY_OVERHEAD);
        return sendStored(stored, conditions, remember);
      }
    }
    const identity = composePage(reader, list);
    const page: ComposedPage = { etag: etagOf(identity), identity, snapshotId: manifest.snapshotId };
    composedPages.set(request.url, page, composedPageSize(request.url, page));
    return sendComposedPage(request.url, page, conditions);
  }

  /** Sends a cached composed page; a coding made for it now is counted against the cache's bound. */
  function sendComposedPage(url: string, page: ComposedPage, conditions: Conditions): Outgoing {
    return sendComposed(page, conditions, () => {
      if (composedPages.get(url) === page) composedPages.set(url, page, composedPageSize(url, page));
    });
  }

  async function respond(request: CoreRequest, state: { organization?: Organization; rate?: RateDecision }): Promise<Outgoing> {
    await admit(request, state);
    if (request.method !== "GET" && request.method !== "HEAD") {
      throw new ApiError(405, "bad_request", `Method ${request.method.slice(0, 20)} is not allowed; use GET or HEAD.`, undefined, { allow: ALLOWED_METHODS });
    }
    const queryAt = request.url.indexOf("?");
    const rawPath = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const route = matchRoute(rawPath);
    if (!route) throw new ApiError(404, "not_found", "No such endpoint; see the API reference at /.");
    return serve(request, route, queryAt === -1 ? "" : request.url.slice(queryAt + 1));
  }

  return async function handle(request) {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    const state: { organization?: Organization; rate?: RateDecision } = {};
    let outgoing: Outgoing;
    try {
      outgoing = await respond(request, state);
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.status >= 500) options.onError?.(requestId, thrown);
      outgoing = {
        status: error.status,
        headers: { "content-type": JSON_TYPE, "cache-control": "no-store", ...error.headers },
        body: error.toBody(requestId),
      };
    }
    const headers: Record<string, string> = {
      ...outgoing.headers,
      "x-request-id": requestId,
      "x-content-type-options": "nosniff",
      ...(state.rate ? rateHeaders(state.rate) : {}),
    };
    if (outgoing.status !== 304) headers["content-length"] = String(outgoing.body.length);
    const body = request.method === "HEAD" || outgoing.status === 304 ? Buffer.alloc(0) : outgoing.body;
    options.onLog?.({
      requestId,
      organization: state.organization?.id,
      method: request.method,
      path: request.url.split("?")[0]!.slice(0, 300),
      status: outgoing.status,
      bytes: body.length,
      durationMs: elapsedMs(started),
      cache: outgoing.cache,
    });
    return { status: outgoing.status, headers, body };
  };
}
