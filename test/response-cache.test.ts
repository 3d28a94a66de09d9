/**
 * The caches keyed by what requests ask (decision: caches keyed by client input): each holds at
 * most the bytes it is given, keeps the pages used last, counts a coding made later against its
 * bound, and a composed page is kept only when its URL comes back soon (the doorkeeper), so a URL
 * asked once costs no page in memory. Bounds are passed in: no test depends on the defaults.
 */
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import type { Snapshot } from "../api/_core/format/read/snapshot.js";
import { type CacheBudgets, type CachedBody, ResponseCache } from "../api/_core/respond/response-cache.js";

const budgets = (bytes: Partial<CacheBudgets>): CacheBudgets => ({
  storedBytes: 2 ** 20,
  composedBytes: 2 ** 20,
  memoBytes: 2 ** 20,
  ...bytes,
});

/** A composed page of `bytes` bytes whose content names it. */
function page(name: string, bytes = 500): CachedBody {
  const identity = Buffer.alloc(bytes, " ");
  identity.write(name);
  return { etag: `"${name}"`, identity };
}

/** Asks for a composed page the way the core does: served from the cache, or composed and offered to it. */
function ask(cache: ResponseCache, url: string, body = page(url)): { cached: boolean; kept: boolean } {
  if (cache.composedPage(url)) return { cached: true, kept: true };
  return { cached: false, kept: cache.keepComposed(url, body) !== undefined };
}

describe("the doorkeeper of composed pages", () => {
  test("a URL asked once is not kept; asked again, its page is kept and served from then on", () => {
    const cache = new ResponseCache(budgets({}));
    expect(ask(cache, "/v1/showtimes?limit=7")).toEqual({ cached: false, kept: false });
    expect(cache.bytes().composed).toBe(0);
    expect(ask(cache, "/v1/showtimes?limit=7")).toEqual({ cached: false, kept: true });
    expect(ask(cache, "/v1/showtimes?limit=7")).toEqual({ cached: true, kept: true });
    expect(cache.composedPage("/v1/showtimes?limit=7")?.etag).toBe('"/v1/showtimes?limit=7"');
  });

  test("the page kept is a copy holding the same bytes and tag: the composed buffer may be reused", () => {
    const cache = new ResponseCache(budgets({}));
    const composed = page("/v1/films?limit=3");
    cache.keepComposed("/v1/films?limit=3", composed);
    const kept = cache.keepComposed("/v1/films?limit=3", composed)!;
    composed.identity!.fill(0);
    expect(cache.composedPage("/v1/films?limit=3")).toBe(kept);
    expect(kept.etag).toBe('"/v1/films?limit=3"');
    expect(kept.identity).toEqual(page("/v1/films?limit=3").identity);
  });

  test("a URL that comes back after a few others is kept", () => {
    const cache = new ResponseCache(budgets({}));
    const urls = Array.from({ length: 10 }, (_, i) => `/v1/showtimes?limit=${i + 1}`);
    for (const url of urls) expect(ask(cache, url).kept).toBe(false);
    for (const url of urls) expect(ask(cache, url), url).toEqual({ cached: false, kept: true });
  });

  test("its memory is bounded: a URL that comes back only after very many others is not kept", () => {
    const cache = new ResponseCache(budgets({}));
    ask(cache, "/v1/showtimes?limit=7");
    for (let i = 0; i < 100_000; i++) cache.keepComposed(`/v1/showtimes?limit=7&startsAfter=${i}`, page("other", 1));
    expect(ask(cache, "/v1/showtimes?limit=7")).toEqual({ cached: false, kept: false });
    // Forgotten, then seen once more: the next request keeps it.
    expect(ask(cache, "/v1/showtimes?limit=7")).toEqual({ cached: false, kept: true });
  });
});

describe("each cache is bounded to the bytes it is given", () => {
  const bound = 10_000;
  const sizes = [300, 2_000, 50, 1_200, 700, 3_000, 10, 900, 2_500, 400, 1_500, 600];

  test.each(sizes.map((_, i) => [i]))(
    "composed pages (rotation %i of the sizes): never more than the bound; the newest kept, the oldest gone",
    (rotation) => {
      const cache = new ResponseCache(budgets({ composedBytes: bound }));
      const urls: string[] = [];
      for (let i = 0; i < 60; i++) {
        const url = `/v1/showtimes?limit=${i + 1}`;
        const size = sizes[(i + rotation) % sizes.length]!;
        cache.keepComposed(url, page(url, size));
        cache.keepComposed(url, page(url, size));
        urls.push(url);
        expect(cache.bytes().composed).toBeLessThanOrEqual(bound);
        expect(cache.composedPage(url)?.etag).toBe(`"${url}"`);
      }
      // 60 pages of ~1,100 bytes on average through 10,000 bytes: the first ones were evicted, and
      // the newest ones are all kept, as many as half the bound holds of their bodies alone.
      expect(cache.composedPage(urls[0]!)).toBeUndefined();
      let bodies = 0;
      for (let i = urls.length - 1; i >= 0; i--) {
        bodies += sizes[(i + rotation) % sizes.length]!;
        if (bodies > bound / 2) break;
        expect(cache.composedPage(urls[i]!)?.etag, urls[i]).toBe(`"${urls[i]}"`);
      }
    },
  );

  test("stored bodies: never more than the bound; the ones read last are kept", () => {
    const cache = new ResponseCache(budgets({ storedBytes: bound }));
    const gzip = gzipSync(Buffer.alloc(4_000, "x"));
    cache.keepStored("hot", { etag: '"hot"', gzip });
    for (let i = 0; i < 200; i++) {
      cache.keepStored(`key-${i}`, { etag: `"${i}"`, gzip: Buffer.alloc(sizes[i % sizes.length]!) });
      expect(cache.storedBody("hot")?.etag, `after ${i + 1} others`).toBe('"hot"');
      expect(cache.bytes().stored).toBeLessThanOrEqual(bound);
    }
    expect(cache.storedBody("key-0")).toBeUndefined();
    expect(cache.storedBody("key-199")?.etag).toBe('"199"');
  });

  test("the URL memo: never more than the bound; the URLs remembered last are kept", () => {
    const cache = new ResponseCache(budgets({ memoBytes: bound }));
    for (let i = 0; i < 500; i++) {
      cache.rememberUrl(`/v1/films/film-${i}`, `key-${i}`);
      expect(cache.bytes().memo).toBeLessThanOrEqual(bound);
    }
    expect(cache.memoOf("/v1/films/film-0")).toBeUndefined();
    expect(cache.memoOf("/v1/films/film-499")).toBe("key-499");
  });

  test("a coding made later counts against the bound of the cache holding the body, by its bytes", () => {
    const cache = new ResponseCache(budgets({}));
    const identity = Buffer.from(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: `st-${i}` })) }));
    const body = cache.keepStored("key", { etag: '"t"', gzip: gzipSync(identity) });
    const before = cache.bytes().stored;
    const made = cache.encode(body, "key", "stored", "identity");
    expect(made).toEqual(identity);
    expect(cache.bytes().stored).toBe(before + identity.length);
    const br = cache.encode(body, "key", "stored", "br");
    expect(brotliDecompressSync(br)).toEqual(identity);
    expect(cache.bytes().stored).toBe(before + identity.length + br.length);
    // Made once: asked again, the same bytes, counted once.
    expect(cache.encode(body, "key", "stored", "br")).toBe(br);
    expect(cache.bytes().stored).toBe(before + identity.length + br.length);
    expect(gunzipSync(cache.encode(body, "key", "stored", "gzip"))).toEqual(identity);
  });

  test("a coding that takes a cache past its bound evicts the oldest bodies, not the one just grown", () => {
    const identity = Buffer.alloc(8_000, "a");
    const cache = new ResponseCache(budgets({ storedBytes: bound }));
    const body = cache.keepStored("grown", { etag: '"g"', gzip: gzipSync(identity) });
    for (let i = 0; i < 5; i++) cache.keepStored(`small-${i}`, { etag: `"${i}"`, gzip: Buffer.alloc(500) });
    // Six bodies, all held: the gzip of 8,000 equal bytes is tiny.
    expect(["grown", ...Array.from({ length: 5 }, (_, i) => `small-${i}`)].every((key) => cache.storedBody(key))).toBe(
      true,
    );
    cache.encode(body, "grown", "stored", "identity");
    expect(cache.bytes().stored).toBeLessThanOrEqual(bound);
    expect(cache.storedBody("grown")).toBe(body);
    expect(cache.storedBody("small-0")).toBeUndefined();
  });
});

describe("another snapshot", () => {
  test(
    "empties the stored and composed caches, and keeps the URL memo (a URL's body key depends on the " +
      "request alone)",
    () => {
      const cache = new ResponseCache(budgets({}));
      cache.use({} as Snapshot);
      cache.keepStored("key", { etag: '"s"', gzip: Buffer.alloc(100) });
      cache.keepComposed("/v1/films?limit=2", page("/v1/films?limit=2"));
      cache.keepComposed("/v1/films?limit=2", page("/v1/films?limit=2"));
      cache.rememberUrl("/v1/films", "key");
      const memo = cache.bytes().memo;
      cache.use({} as Snapshot);
      expect(cache.bytes()).toEqual({ stored: 0, composed: 0, memo });
      expect([cache.storedBody("key"), cache.composedPage("/v1/films?limit=2"), cache.memoOf("/v1/films")]).toEqual([
        undefined,
        undefined,
        "key",
      ]);
    },
  );

  test("the same snapshot again empties nothing", () => {
    const cache = new ResponseCache(budgets({}));
    const snapshot = {} as Snapshot;
    cache.use(snapshot);
    cache.keepStored("key", { etag: '"s"', gzip: Buffer.alloc(100) });
    const held = cache.bytes();
    cache.use(snapshot);
    expect(cache.bytes()).toEqual(held);
    expect(cache.storedBody("key")?.etag).toBe('"s"');
  });
});
