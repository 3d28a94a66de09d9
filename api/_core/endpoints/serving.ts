/**
 * What an endpoint answers with: a stored body of the snapshot (found by its key, remembered for
 * its URL) or a body composed into a pooled buffer, each sent in the coding the request takes.
 */
import { bodyKeyOf, type BodyKey } from "../format/layout/body-index.js";
import type { PageBuffer, PagePool } from "../format/primitives/page-buffer.js";
import type { Snapshot } from "../format/read/snapshot.js";
import { composedTag } from "../respond/body-tag.js";
import { sendBody, type Conditions, type Outgoing } from "../respond/respond.js";
import type { CachedBody, ResponseCache } from "../respond/response-cache.js";

/** Answers a matched request: its ids (in path order, percent-encoded), its raw query, the request being served. */
export interface Endpoint {
  answer(rawIds: readonly string[], rawQuery: string, serving: Serving): Outgoing;
}

/**
 * One request being served: the snapshot it reads and where its body goes. `url` is what the
 * cache keeps its body under; `listing`, a page of showtimes asked as find_showtimes lists it
 * (decision: MCP), which no stored page is.
 */
export class Serving {
  constructor(
    readonly snapshot: Snapshot,
    private readonly cache: ResponseCache,
    private readonly pages: PagePool,
    private readonly url: string,
    private readonly conditions: Conditions,
    readonly listing = false,
  ) {}

  /** A stored body by its key (as latin1), from the cache or the snapshot. */
  storedBody(key: string): CachedBody | undefined {
    const cached = this.cache.storedBody(key);
    if (cached) return cached;
    const address = this.snapshot.bodies.find(Buffer.from(key, "latin1"));
    return address && this.cache.keepStored(key, this.snapshot.bodies.read(address));
  }

  sendStored(key: string, body: CachedBody): Outgoing {
    return sendBody(body, this.conditions, "precomputed", (coding) => this.cache.encode(body, key, "stored", coding));
  }

  /** The stored body answering `bodyKey`, sent and remembered for this URL; undefined when the snapshot has none. */
  stored(bodyKey: BodyKey): Outgoing | undefined {
    if (this.listing) return undefined;
    const key = bodyKeyOf(bodyKey).toString("latin1");
    const body = this.storedBody(key);
    if (!body) return undefined;
    this.cache.rememberUrl(this.url, key);
    return this.sendStored(key, body);
  }

  /**
   * Sends a body `write` composes into a buffer lent by the pool (given back by `release` once the
   * response is written); the cache, if it keeps the body, keeps a copy of its own. `identity`
   * names the bytes within this snapshot: its tag.
   */
  composed(identity: string, write: (out: PageBuffer) => void): Outgoing {
    const { cache, pages, url, conditions } = this;
    const page = pages.acquire();
    try {
      write(page);
    } catch (error) {
      pages.release(page);
      throw error;
    }
    const body: CachedBody = { etag: composedTag(this.snapshot.manifest.snapshotId, identity), identity: page.lend() };
    const kept = cache.keepComposed(url, body);
    // Codings are made on the cache's copy when it kept one, so they are kept (and counted) with it.
    const outgoing = sendBody(kept ?? body, conditions, "composed", (coding) =>
      cache.encode(kept ?? body, url, "composed", coding),
    );
    // Sent from the lent buffer only when it is the body going out; a coding made from it, or a 304, frees it now.
    if (outgoing.body === body.identity) outgoing.release = () => pages.release(page);
    else pages.release(page);
    return outgoing;
  }
}
