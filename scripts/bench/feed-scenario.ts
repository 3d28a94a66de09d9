/**
 * The changes feed's serving scenario: pages of 1,000 changes (the feed's default limit), their
 * URLs found by walking the feed in process through the request core, as a mirror would: the full
 * copy's pages and, when the snapshot's history holds earlier generations, the pages of a catch-up
 * from a day behind and from the oldest token still answered (decision: changes feed).
 */
import { readManifest, Snapshot } from "../../api/_core/format/read/snapshot.js";
import { encodeSyncToken } from "../../api/_core/tokens/sync-token.js";
import { feedInProcess, feedQuery, walkFeed } from "./feed-walk.js";
import type { Scenario } from "./scenario.js";

export const FEED_SCENARIO = "changes feed page of 1000, uncached";
/** The page size a mirror gets by default. */
const FEED_LIMIT = 1000;
/**
 * Distinct pages per sync (a full copy, a catch-up): ~0.4 MB each, so 100 pages are ten times the
 * composed-page cache, and the ceiling still holds every response in memory.
 */
export const FEED_PAGES_PER_SYNC = 100;

/** At most `n` items of `items`, spread evenly from the first to the last. */
export function spreadEvenly<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  if (n <= 1) return items.slice(0, n);
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))]!);
}

/** The generations a catch-up starts from: a day behind (one build), and the oldest the history answers. */
function catchUpGenerations(snapshotDir: string): { history: string; generations: number[] } {
  const snapshot = new Snapshot(readManifest(snapshotDir), snapshotDir, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
  try {
    const { id, generation, horizon } = snapshot.history.meta;
    const from = [generation - 1, horizon].filter(
      (g, i, all) => g >= horizon && g < generation && all.indexOf(g) === i,
    );
    return { history: id, generations: from };
  } finally {
    snapshot.close();
  }
}

export async function collectFeedScenario(snapshotDir: string): Promise<Scenario> {
  const get = feedInProcess(snapshotDir);
  const full = await walkFeed(get, feedQuery(FEED_LIMIT));
  const paths = spreadEvenly(full.pageUrls, FEED_PAGES_PER_SYNC);
  const { history, generations } = catchUpGenerations(snapshotDir);
  for (const generation of generations) {
    const since = encodeSyncToken({ history, generation });
    const catchUp = await walkFeed(get, feedQuery(FEED_LIMIT, since));
    paths.push(...spreadEvenly(catchUp.pageUrls, FEED_PAGES_PER_SYNC));
  }
  return { name: FEED_SCENARIO, paths, authorized: true, uncached: true };
}
