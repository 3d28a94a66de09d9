/**
 * A stand-in for the part of Vercel's platform in front of the functions, for `verify:vercel`:
 * it runs the built middleware on the paths its matcher names (honouring its rewrite, next,
 * request-header override and added response headers), then a CDN cache, then the function.
 * The cache follows Vercel's documented rules (scripts/vercel/cdn.ts): its key is the method, the
 * URL with query and the host, never Accept-Encoding nor any Vary; a request other than GET or
 * HEAD, or with Authorization, Range, Pragma: no-cache or _vercel_no_cache goes past it (BYPASS); a 200 is kept for the
 * max-age of Vercel-CDN-Cache-Control, else CDN-Cache-Control, else Cache-Control, unless those
 * say private, no-store or no-cache, or it sets a cookie. Vercel-CDN-Cache-Control goes no
 * further, and x-vercel-cache says HIT, MISS or BYPASS. It counts the function's calls, so a test
 * can show that a cache hit invokes none.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { bypassReason, cacheKey, storedFor } from "./cdn.js";
import { type Route, routeOf } from "./output-layout.js";

/**
 * The launched functions by the path config.json's routes name them by (`/api/v1`, and for an
 * output split per market `/api/markets/<id>`: market-functions.ts); a request goes to the one its
 * path routes to after the middleware, else to `/api/v1`'s.
 */
export type FunctionUrls = Record<string, string>;
const FIRST_FUNCTION = "/api/v1";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Stored extends Answer {
  /** Date.now() past which the entry is stale (the documented max-age). */
  expiresAt: number;
}

export interface PlatformOptions {
  /**
   * Whether a rewritten request also bypasses the cache when the client's own request (before the
   * middleware replaced its headers) would: an open question only a deployment answers, so the
   * checks run each forwarding mode under the reading it must survive.
   */
  bypassOnClientRequest?: boolean;
}

export interface PlatformEvent {
  method: string;
  url: string;
  status: number;
  /** HIT, MISS or BYPASS: a cache lookup (MISS and BYPASS call the function); middleware: answered by it. */
  cache: "HIT" | "MISS" | "BYPASS" | "middleware";
  /** x-vercel-cache of the answer (for a middleware answer, what its own fetch found). */
  served?: string;
  requestId?: string;
  rateLimit?: string;
}

export interface Platform {
  url: string;
  /** Calls the function has had. */
  functionCalls(): number;
  events: PlatformEvent[];
  close(): Promise<void>;
}

/** Calls a launched function with the target as given (a URL would resolve its dot segments), and the body if any. */
function call(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: url, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
        resolve({ status: res.statusCode!, headers: flat, body: Buffer.concat(chunks) });
      });
    });
    req.on("error", reject);
    req.end(body?.length ? body : undefined);
  });
}

/** The whole body of a client's request (Vercel hands a function the body it received, up to 4.5 MB). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}

/** The headers the middleware asked the forwarded request to have, or the request's own. */
function overridden(request: Record<string, string>, middleware: Record<string, string>): Record<string, string> {
  const names = middleware["x-middleware-override-headers"];
  if (names === undefined) return request;
  const headers: Record<string, string> = { host: request.host! };
  for (const name of names.split(",").filter(Boolean)) headers[name] = middleware[`x-middleware-request-${name}`] ?? "";
  return headers;
}

/** What a middleware response adds to the final one: everything but its own control fields. */
function addedHeaders(middleware: Record<string, string>): Record<string, string> {
  const added: Record<string, string> = {};
  for (const [name, value] of Object.entries(middleware))
    if (
      !name.startsWith("x-middleware-") &&
      !["content-length", "transfer-encoding", "connection", "date", "keep-alive"].includes(name)
    )
      added[name] = value;
  return added;
}

/**
 * The path an absolute-form target names (`GET http://host/v1/films`), by which the platform routes
 * it; the target goes on to the middleware as sent, authority and all (the stricter reading: Node's
 * launcher then builds the request's URL from that authority).
 */
function pathOf(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "").split("?")[0] || "/";
}

function notModified(stored: Stored, ifNoneMatch: string | undefined): boolean {
  const etag = stored.headers.etag;
  return etag !== undefined && ifNoneMatch?.split(/\s*,\s*/).includes(etag) === true;
}

/**
 * Serves on a free loopback port: `middlewareUrl` and `functionUrl` are the launched functions (one
 * URL, or one per function the routes name: FunctionUrls).
 * The middleware's may be given as a function, read at each request: a middleware configured with
 * the platform's own URL (GATEWAY_ORIGIN) is launched once the platform listens.
 */
export function startPlatform(
  routes: Route[],
  middlewareUrl: string | (() => string),
  functionUrl: string | FunctionUrls,
  options: PlatformOptions = {},
): Promise<Platform> {
  const functionFor = (target: string): string => {
    if (typeof functionUrl === "string") return functionUrl;
    const dest = routeOf(routes, pathOf(target));
    return functionUrl[dest ?? FIRST_FUNCTION] ?? (functionUrl[FIRST_FUNCTION] as string);
  };
  const middlewareRoute = routes.find((route) => route.middlewarePath !== undefined);
  const matcher = middlewareRoute?.src ? new RegExp(middlewareRoute.src) : undefined;
  const cache = new Map<string, Stored>();
  const events: PlatformEvent[] = [];
  let functionCalls = 0;

  function fromCache(stored: Stored, headers: Record<string, string>): Answer {
    const hit = notModified(stored, headers["if-none-match"])
      ? { status: 304, headers: { ...stored.headers }, body: Buffer.alloc(0) }
      : { ...stored, headers: { ...stored.headers } };
    if (hit.status === 304) delete hit.headers["content-length"];
    return hit;
  }

  async function fromCacheOrFunction(
    method: string,
    url: string,
    headers: Record<string, string>,
    bypass: boolean,
    body: Buffer,
  ) {
    const key = cacheKey(method, url, headers);
    const stored = bypass ? undefined : cache.get(key);
    if (stored && stored.expiresAt > Date.now()) return { answer: fromCache(stored, headers), cache: "HIT" as const };
    functionCalls++;
    const answer = await call(functionFor(url), method, url, headers, body);
    const kept = storedFor(answer.status, answer.headers);
    delete answer.headers["vercel-cdn-cache-control"];
    if (!bypass && "seconds" in kept)
      cache.set(key, { ...answer, headers: { ...answer.headers }, expiresAt: Date.now() + kept.seconds * 1000 });
    return { answer, cache: bypass ? ("BYPASS" as const) : ("MISS" as const) };
  }

  async function handle(
    method: string,
    url: string,
    requestHeaders: Record<string, string>,
    body: Buffer,
  ): Promise<Answer> {
    let target = url;
    let headers = requestHeaders;
    let added: Record<string, string> = {};
    if (matcher?.test(pathOf(url))) {
      const middleware = typeof middlewareUrl === "string" ? middlewareUrl : middlewareUrl();
      const decided = await call(middleware, method, url, { ...requestHeaders, "x-forwarded-proto": "http" }, body);
      const rewriteTo = decided.headers["x-middleware-rewrite"];
      if (rewriteTo === undefined && decided.headers["x-middleware-next"] === undefined) {
        events.push({ method, url, status: decided.status, cache: "middleware", ...idsOf(decided.headers) });
        return decided;
      }
      if (rewriteTo !== undefined) {
        const rewritten = new URL(rewriteTo, "http://platform");
        target = `${rewritten.pathname}${rewritten.search}`;
      }
      headers = overridden(requestHeaders, decided.headers);
      added = addedHeaders(decided.headers);
    }
    const bypass =
      bypassReason(method, target, headers) !== undefined ||
      (options.bypassOnClientRequest === true && bypassReason(method, url, requestHeaders) !== undefined);
    // A rewrite keeps the request's body (an MCP POST's), as the platform forwards it.
    const { answer, cache: status } = await fromCacheOrFunction(method, target, headers, bypass, body);
    Object.assign(answer.headers, added, { "x-vercel-cache": status });
    events.push({ method, url, status: answer.status, cache: status, ...idsOf(answer.headers) });
    return answer;
  }

  const server: Server = createServer((req, res) => {
    readBody(req)
      .then((body) => handle(req.method ?? "GET", req.url ?? "/", flatten(req.headers), body))
      .then(
        (answer) => {
          res.writeHead(answer.status, answer.headers);
          res.end(req.method === "HEAD" ? undefined : answer.body);
        },
        (error: Error) => {
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(`platform: ${error.message}`);
        },
      );
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        functionCalls: () => functionCalls,
        events,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

function idsOf(headers: Record<string, string>): { requestId?: string; rateLimit?: string; served?: string } {
  return { requestId: headers["x-request-id"], rateLimit: headers.ratelimit, served: headers["x-vercel-cache"] };
}
