/**
 * find_showtimes's listing as the core composes it, against its oracle: the page `/v1` answers for
 * the same URL, parsed, listed (showtimeListingOf) and written again by JSON.stringify.
 */
import { expect } from "vitest";
import { PagePool } from "../../api/_core/format/primitives/page-buffer.js";
import type { SnapshotSource } from "../../api/_core/format/read/snapshot-source.js";
import { showtimeListingOf } from "../../api/_core/mcp/showtime-listing.js";
import { ResponseCache } from "../../api/_core/respond/response-cache.js";
import { serve } from "../../api/_core/serve.js";

/** Serves GETs of one snapshot in process, as the MCP endpoint's tools ask them. */
export function listingServer(source: SnapshotSource) {
  const cache = new ResponseCache();
  const pages = new PagePool();
  return (url: string, listing = false): { status: number; text: string } => {
    const outgoing = serve({ method: "GET", url, conditions: {}, listing }, source, cache, pages);
    const text = Buffer.from(outgoing.body).toString("utf8");
    outgoing.release?.();
    return { status: outgoing.status, text };
  };
}

/** Expects the listing of `url` to be its page's, listed, byte for byte; the page's parsed JSON. */
export function expectListingOfPage(ask: ReturnType<typeof listingServer>, url: string): any {
  const page = ask(url);
  const listing = ask(url, true);
  expect([page.status, listing.status], url).toEqual([200, 200]);
  const parsed = JSON.parse(page.text);
  expect(listing.text, url).toBe(JSON.stringify(showtimeListingOf(parsed)));
  return parsed;
}
