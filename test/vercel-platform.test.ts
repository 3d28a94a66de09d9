/**
 * The stand-in for Vercel's router and CDN that `npm run verify:vercel` serves the built pair
 * behind (scripts/vercel-platform.ts): its cache follows what Vercel documents (decision: codings
 * behind the CDN), so the HTTP checks fail where a real deployment would answer wrongly. Driven
 * over real sockets, with a function that answers whatever headers a test asks of it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Platform, startPlatform } from "../scripts/vercel-platform.js";
import { send } from "../scripts/vercel-http-checks.js";

/** The function: echoes the Accept-Encoding it was called with; its response headers come from the query. */
let fn: Server;
let calls = 0;
let platform: Platform;

beforeAll(async () => {
  fn = createServer((req, res) => {
    calls++;
    const url = new URL(req.url ?? "/", "http://fn");
    const headers: Record<string, string> = { "content-type": "application/json" };
    for (const [name, value] of url.searchParams) if (name.startsWith("h-")) headers[name.slice(2)] = value;
    res.writeHead(Number(url.searchParams.get("status") ?? 200), headers);
    res.end(JSON.stringify({ acceptEncoding: req.headers["accept-encoding"] ?? null, call: calls }));
  });
  await new Promise<void>((resolve) => fn.listen(0, "127.0.0.1", resolve));
  platform = await startPlatform([], "", `http://127.0.0.1:${(fn.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await platform.close();
  await new Promise((resolve) => fn.close(resolve));
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
