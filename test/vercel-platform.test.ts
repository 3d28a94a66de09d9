/**
 * The stand-in for Vercel's router and CDN that `npm run verify:vercel` serves the built pair
 * behind (scripts/vercel/platform.ts): its cache follows what Vercel documents (decisions: codings
 * behind the CDN, what the CDN keeps), so the HTTP checks fail where a real deployment would
 * answer wrongly. Driven over real sockets, with a function that answers whatever headers a test
 * asks of it and a middleware that rewrites everything and keeps no request header.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Platform, startPlatform } from "../scripts/vercel/platform.js";
import { send } from "../scripts/vercel/http-checks.js";

/**
 * The function: echoes the Accept-Encoding and the body it was called with; its response headers
 * come from the query.
 */
let fn: Server;
let calls = 0;
let platform: Platform;

let middleware: Server;
/** The targets the middleware was called with, as the platform sent them. */
const middlewareSaw: string[] = [];
let strict: Platform;

beforeAll(async () => {
  middleware = createServer((req, res) => {
    middlewareSaw.push(req.url ?? "");
    const { pathname, search } = new URL(req.url ?? "/", "http://x");
    res.writeHead(200, {
      "x-middleware-rewrite": `http://x/r${pathname}${search}`,
      "x-middleware-override-headers": "",
    });
    res.end();
  });
  await new Promise<void>((resolve) => middleware.listen(0, "127.0.0.1", resolve));
  fn = createServer(async (req, res) => {
    calls++;
    const url = new URL(req.url ?? "/", "http://fn");
    const headers: Record<string, string> = { "content-type": "application/json" };
    for (const [name, value] of url.searchParams) if (name.startsWith("h-")) headers[name.slice(2)] = value;
    let body = "";
    for await (const chunk of req) body += chunk;
    res.writeHead(Number(url.searchParams.get("status") ?? 200), headers);
    res.end(JSON.stringify({ acceptEncoding: req.headers["accept-encoding"] ?? null, call: calls, body }));
  });
  await new Promise<void>((resolve) => fn.listen(0, "127.0.0.1", resolve));
  const fnUrl = `http://127.0.0.1:${(fn.address() as AddressInfo).port}`;
  const middlewareUrl = `http://127.0.0.1:${(middleware.address() as AddressInfo).port}`;
  const routes = [{ src: "^/m/.*$", middlewarePath: "middleware" }];
  platform = await startPlatform(routes, middlewareUrl, fnUrl);
  strict = await startPlatform(routes, middlewareUrl, fnUrl, { bypassOnClientRequest: true });
});
afterAll(async () => {
  await Promise.all([platform.close(), strict.close()]);
  await new Promise((resolve) => fn.close(resolve));
  await new Promise((resolve) => middleware.close(resolve));
});
beforeEach(() => {
  platform.events.length = 0;
});

const CACHED = "h-vercel-cdn-cache-control=max-age%3D600";
let unique = 0;
/** A path no other test has used, so each starts with a cold cache. */
const fresh = (query = CACHED) => `/p${++unique}?${query}`;

describe("the cache key is the method, the URL with its query and the host, as Vercel documents", () => {
  test.each<[string, Record<string, string>, (path: string) => string, string, Record<string, string>, string]>([
    ["another Accept-Encoding", { "accept-encoding": "gzip" }, (p) => p, "GET", { "accept-encoding": "br" }, "HIT"],
    ["no Accept-Encoding after gzip", { "accept-encoding": "gzip" }, (p) => p, "GET", {}, "HIT"],
    ["another Vary-named header", { "accept-language": "de" }, (p) => p, "GET", { "accept-language": "fr" }, "HIT"],
    ["another query", {}, (p) => `${p}&x=1`, "GET", {}, "MISS"],
    ["another method", {}, (p) => p, "HEAD", {}, "MISS"],
    ["another host", {}, (p) => p, "GET", { host: "other.example" }, "MISS"],
  ])("then %s", async (_what, firstHeaders, secondPath, method, secondHeaders, expected) => {
    const path = fresh(`${CACHED}&h-vary=Accept-Encoding%2C%20Accept-Language`);
    const first = await send(platform.url, path, { headers: firstHeaders });
    const second = await send(platform.url, secondPath(path), { method, headers: secondHeaders });
    expect(first.headers["x-vercel-cache"]).toBe("MISS");
    expect(second.headers["x-vercel-cache"]).toBe(expected);
    // A hit hands over the first body, whatever this request accepts: the coding must be in the URL.
    if (expected === "HIT") expect(second.body.equals(first.body)).toBe(true);
  });

  test("Vercel-CDN-Cache-Control stays with the CDN; a hit calls no function", async () => {
    const path = fresh();
    const before = calls;
    const first = await send(platform.url, path);
    const second = await send(platform.url, path);
    expect(first.headers["vercel-cdn-cache-control"]).toBeUndefined();
    expect(second.headers["x-vercel-cache"]).toBe("HIT");
    expect(calls - before).toBe(1);
  });
});

describe("what goes past the cache: a request with", () => {
  test.each<[string, Record<string, string>, string]>([
    ["Authorization", { authorization: "Bearer k" }, ""],
    ["Range", { range: "bytes=0-1" }, ""],
    ["Pragma: no-cache", { pragma: "no-cache" }, ""],
    ["the _vercel_no_cache cookie", { cookie: "a=1; _vercel_no_cache=1" }, ""],
    ["the _vercel_no_cache query parameter", {}, "&_vercel_no_cache=1"],
  ])("%s: BYPASS, the function called, nothing stored", async (_what, headers, query) => {
    const path = fresh();
    await send(platform.url, path);
    const before = calls;
    const bypassed = await send(platform.url, `${path}${query}`, { headers });
    expect(bypassed.headers["x-vercel-cache"]).toBe("BYPASS");
    expect(calls - before).toBe(1);
    // A bypassed answer is not stored either: the next plain request for its URL still misses.
    const other = fresh();
    await send(platform.url, `${other}${query}`, { headers });
    expect((await send(platform.url, `${other}${query}`)).headers["x-vercel-cache"]).not.toBe("HIT");
  });

  test.each([["/p"], ["/m/p"]])(
    "a POST (an MCP message) at %s: BYPASS, its body handed on to the function, rewritten or not, never stored",
    async (prefix) => {
      const path = `${prefix}${fresh()}`;
      const message = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
      const before = calls;
      for (let i = 0; i < 2; i++) {
        const answer = await send(platform.url, path, { method: "POST", body: message });
        expect(answer.headers["x-vercel-cache"]).toBe("BYPASS");
        expect(answer.json().body).toBe(message);
      }
      expect(calls - before).toBe(2);
      expect((await send(platform.url, path)).headers["x-vercel-cache"]).toBe("MISS");
    },
  );

  test.each<[string, Record<string, string>]>([
    ["Pragma: no-cache without no-cache", { pragma: "x-no-cache-please" }],
    ["a cookie merely named like it", { cookie: "not_vercel_no_cache=1" }],
    ["Cache-Control: no-cache (not documented)", { "cache-control": "no-cache" }],
  ])("%s: served from the cache", async (_what, headers) => {
    const path = fresh();
    await send(platform.url, path);
    expect((await send(platform.url, path, { headers })).headers["x-vercel-cache"]).toBe("HIT");
  });
});

describe("a rewritten request whose client sent Authorization (the headers the middleware kept have none)", () => {
  test("is served from the cache by default, and goes past it when the client's own request counts", async () => {
    const path = `/m${fresh()}`;
    const key = { authorization: "Bearer k" };
    await send(platform.url, path, { headers: key });
    expect((await send(platform.url, path, { headers: key })).headers["x-vercel-cache"]).toBe("HIT");
    await send(strict.url, path, { headers: key });
    expect((await send(strict.url, path, { headers: key })).headers["x-vercel-cache"]).toBe("BYPASS");
    expect((await send(strict.url, path)).headers["x-vercel-cache"]).toBe("MISS");
    expect((await send(strict.url, path)).headers["x-vercel-cache"]).toBe("HIT");
  });
});

describe("an absolute-form target (GET http://host/path)", () => {
  test("is routed by its path to the middleware, which sees the target as sent", async () => {
    const target = `http://other.example:47999/m${fresh()}`;
    const answer = await send(platform.url, target);
    expect(middlewareSaw).toContain(target);
    expect(answer.headers["x-vercel-cache"]).toBe("MISS");
  });
});

describe("what the cache keeps: a 200 with", () => {
  const q = (headers: Record<string, string>) =>
    Object.entries(headers)
      .map(([name, value]) => `h-${name}=${encodeURIComponent(value)}`)
      .join("&");
  test.each<[string, boolean, Record<string, string>]>([
    ["Cache-Control: private, max-age=60 alone", false, { "cache-control": "private, max-age=60" }],
    [
      "private in Cache-Control, a max-age in Vercel-CDN-Cache-Control (the internal 200s)",
      true,
      { "cache-control": "private, max-age=60", "vercel-cdn-cache-control": "max-age=31536000, immutable" },
    ],
    ["a max-age in Cache-Control", true, { "cache-control": "max-age=60" }],
    ["s-maxage in Cache-Control", true, { "cache-control": "max-age=0, s-maxage=60" }],
    [
      "CDN-Cache-Control over a no-store Cache-Control",
      true,
      { "cache-control": "no-store", "cdn-cache-control": "max-age=60" },
    ],
    [
      "Vercel-CDN-Cache-Control: no-store over CDN-Cache-Control",
      false,
      { "vercel-cdn-cache-control": "no-store", "cdn-cache-control": "max-age=60" },
    ],
    ["private in Vercel-CDN-Cache-Control", false, { "vercel-cdn-cache-control": "private, max-age=60" }],
    ["max-age=0", false, { "vercel-cdn-cache-control": "max-age=0" }],
    ["Set-Cookie", false, { "vercel-cdn-cache-control": "max-age=60", "set-cookie": "a=1" }],
    ["Vary: Cookie", false, { "vercel-cdn-cache-control": "max-age=60", vary: "Accept, Cookie" }],
    ["no cache header at all", false, {}],
  ])("%s: kept %s", async (_what, kept, headers) => {
    const path = fresh(q(headers));
    await send(platform.url, path);
    expect((await send(platform.url, path)).headers["x-vercel-cache"]).toBe(kept ? "HIT" : "MISS");
  });

  test("a 404, even marked for the CDN, is not kept", async () => {
    const path = fresh(`${CACHED}&status=404`);
    await send(platform.url, path);
    expect((await send(platform.url, path)).headers["x-vercel-cache"]).toBe("MISS");
  });
});

describe("an output split per market: each request goes to the function its path routes to", () => {
  let marketFn: Server;
  let split: Platform;
  const GB = "a1".repeat(16);
  beforeAll(async () => {
    marketFn = createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "vercel-cdn-cache-control": "max-age=600" });
      res.end(JSON.stringify({ market: "gb", url: req.url }));
    });
    await new Promise<void>((resolve) => marketFn.listen(0, "127.0.0.1", resolve));
    const routes = [
      { src: "^/m/.*$", middlewarePath: "middleware" },
      { handle: "filesystem" },
      { src: `^/r/m/${GB}(?:/(.*))?$`, dest: "/api/markets/gb" },
      { src: "^/r/(.*)$", dest: "/api/v1" },
    ];
    const middlewareUrl = `http://127.0.0.1:${(middleware.address() as AddressInfo).port}`;
    split = await startPlatform(routes, middlewareUrl, {
      "/api/v1": `http://127.0.0.1:${(fn.address() as AddressInfo).port}`,
      "/api/markets/gb": `http://127.0.0.1:${(marketFn.address() as AddressInfo).port}`,
    });
  });
  afterAll(async () => {
    await split.close();
    await new Promise((resolve) => marketFn.close(resolve));
  });

  test.each([
    [`/m/${GB}/gzip/v1/films`, "gb"],
    [`/m/${"b2".repeat(16)}/gzip/v1/films`, undefined],
    [`/m/${GB}x/gzip/v1/films`, undefined],
  ])("%s reaches the function of market %s (none: the first function)", async (path, market) => {
    const body = JSON.parse((await send(split.url, path)).body.toString()) as { market?: string };
    expect(body.market).toBe(market);
  });

  test("the rewritten path is what the market's function is called with, and a hit calls it no more", async () => {
    const path = `/m/${GB}/identity/v1/cinemas`;
    const first = await send(split.url, path);
    const calls = split.functionCalls();
    const second = await send(split.url, path);
    expect(JSON.parse(first.body.toString())).toEqual({ market: "gb", url: `/r${path}` });
    expect([first.headers["x-vercel-cache"], second.headers["x-vercel-cache"]]).toEqual(["MISS", "HIT"]);
    expect(split.functionCalls()).toBe(calls);
  });
});
