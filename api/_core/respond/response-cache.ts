/**
 * Every cache keyed by what requests ask, in one place with one accounting of bytes: stored
 * bodies read from the snapshot (with the codings made for them), pages composed per URL, and a
 * memo of URL → stored body key that lets a repeated URL skip parsing. Each is a bounded LRU, and
 * none keeps anything for a request that failed: entries are made only from bodies served.
 */
import { brotliCompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { hashId } from "../format/primitives/id-hash.js";
import type { Snapshot } from "../format/read/snapshot.js";
import type { StoredBody } from "../format/layout/body-index.js";
import { LruCache } from "../format/primitives/lru.js";
import type { Coding } from "./negotiate.js";
import type { BodyInCodings } from "./respond.js";

/** A body and the codings requests have needed of it (identity and brotli are made on demand). */
export type CachedBody = BodyInCodings;

/** Makes `coding` of a body from the coding it has. */
export function encoded(body: CachedBody, coding: Coding): Buffer {
  const identity = (body.identity ??= gunzipSync(body.gzip!));
  if (coding === "gzip") return (body.gzip ??= gzipSync(identity, { level: 1 }));
  if (coding === "br")
    return (body.br ??= brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
  return identity;
}

export interface CacheBudgets {
  /** Stored bodies: the hot pages and records. */
  storedBytes: number;
  /** Composed pages: ~150 pages of 100 showtimes. */
  composedBytes: number;
  /** The URL memo. */
  memoBytes: number;
}

export const DEFAULT_CACHE_BUDGETS: CacheBudgets = {
  storedBytes: 4 * 2 ** 20,
  composedBytes: 4 * 2 ** 20,
  memoBytes: 1 * 2 ** 20,
};

/** An entry's cost beyond its key and bytes: the map's bookkeeping and the objects around them. */
const ENTRY_OVERHEAD = 120;
/**
 * The last URLs composed, by hash: a composed page is kept only when its URL comes back within
 * this many requests. A URL that returns later than that would have been evicted from the cache
 * anyway (it holds ~150 pages of 100 showtimes), so keeping it would only churn the cache, the
 * garbage collector and the memory it returns to.
 */
const DOORKEEPER_SIZE = 1024;

/** A bounded memory of recently seen URL hashes (after TinyLFU's doorkeeper). */
class Doorkeeper {
  private readonly ring = new Uint32Array(DOORKEEPER_SIZE);
  private readonly seen = new Set<number>();
  private next = 0;

  /** True when `key` was seen recently; remembers it either way. */
  check(key: string): boolean {
    const hash = hashId(key);
    if (this.seen.has(hash)) return true;
    if (this.seen.size === DOORKEEPER_SIZE) this.seen.delete(this.ring[this.next]!);
    this.ring[this.next] = hash;
    this.next = (this.next + 1) % DOORKEEPER_SIZE;
    this.seen.add(hash);
    return false;
  }
}

/** What a body costs the cache: every coding held, plus its key. */
function bodySize(key: string, body: CachedBody): number {
  return (
    2 * key.length + ENTRY_OVERHEAD + (body.gzip?.length ?? 0) + (body.identity?.length ?? 0) + (body.br?.length ?? 0)
  );
}

export class ResponseCache {
  private readonly stored: LruCache<string, CachedBody>;
  private readonly composed: LruCache<string, CachedBody>;
  private readonly memo: LruCache<string, string>;
  private readonly doorkeeper = new Doorkeeper();
  /** The snapshot the bodies were read from or composed of: another one empties the caches. */
  private snapshot: Snapshot | undefined;

  constructor(budgets: CacheBudgets = DEFAULT_CACHE_BUDGETS) {
    this.stored = new LruCache(budgets.storedBytes);
    this.composed = new LruCache(budgets.composedBytes);
    this.memo = new LruCache(budgets.memoBytes);
  }

  /** Makes the caches speak for `snapshot`, dropping what another one produced. */
  use(snapshot: Snapshot): void {
    if (snapshot === this.snapshot) return;
    this.stored.clear();
    this.composed.clear();
    this.snapshot = snapshot;
  }

  /** The stored body key a URL was answered with before (the key depends on the request alone). */
  memoOf(url: string): string | undefined {
    return this.memo.get(url);
  }

  rememberUrl(url: string, key: string): void {
    this.memo.set(url, key, 2 * (url.length + key.length) + ENTRY_OVERHEAD);
  }

  storedBody(key: string): CachedBody | undefined {
    return this.stored.get(key);
  }

  keepStored(key: string, body: StoredBody): CachedBody {
    const cached: CachedBody = { etag: body.etag, gzip: body.gzip };
    this.stored.set(key, cached, bodySize(key, cached));
    return cached;
  }

  composedPage(url: string): CachedBody | undefined {
    return this.composed.get(url);
  }

  /** Keeps a copy of a composed page for its URL, once the URL has been asked before; returns the copy. */
  keepComposed(url: string, body: CachedBody): CachedBody | undefined {
    if (!this.doorkeeper.check(url)) return undefined;
    const kept: CachedBody = { etag: body.etag, identity: body.identity && Buffer.from(body.identity) };
    this.composed.set(url, kept, bodySize(url, kept));
    return kept;
  }

  /**
   * `body` in `coding`, made now when it lacks it and kept with it: the bytes are counted against
   * the bound of the cache holding the body under `key` (if it still does).
   */
  encode(body: CachedBody, key: string, kind: "stored" | "composed", coding: Coding): Buffer {
    const bytes = encoded(body, coding);
    const cache = kind === "stored" ? this.stored : this.composed;
    if (cache.get(key) === body) cache.set(key, body, bodySize(key, body));
    return bytes;
  }

  /** Bytes each cache holds now, as counted against its bound. */
  bytes(): { stored: number; composed: number; memo: number } {
    return { stored: this.stored.size, composed: this.composed.size, memo: this.memo.size };
  }
}
