/**
 * The body of `GET /markets` (decision: markets): `{"data": [market, …], "freshness": {…}}`, every
 * market the deployment serves in the order markets.json lists them (one entry, its id null, without
 * markets), each with what its snapshot covers and whether the calling key may use it. Composed per
 * request from each snapshot's manifest and its coverage (worked out once per snapshot): at most 100
 * markets, a few hundred bytes each.
 */
import type { Freshness } from "../format/layout/manifest.js";
import type { Market } from "../format/layout/market-rules.js";
import { instantKeyOf } from "../format/primitives/date-time.js";
import { coverageOf } from "../format/query/coverage.js";
import type { Snapshot } from "../format/read/snapshot.js";
import { basePathOf } from "../endpoints/market-path.js";

/** One market as /markets lists it. */
export interface MarketEntry {
  /** Null in a deployment without markets, whose one market has no id. */
  id: string | null;
  name: string | null;
  /** The market's countries; without markets, those of its cinemas. */
  countries: readonly string[];
  /** Where its API is: `/gb/v1` (`/v1` without markets); its MCP endpoint is `/gb/mcp`. */
  basePath: string;
  /** Whether `/v1` serves it too. */
  default: boolean;
  /** Whether the calling key's organization may use it now (its 403 otherwise). */
  entitled: boolean;
  /** Null, as the dates and freshness, while its snapshot cannot be read (its requests answer 503). */
  counts: { cinemas: number; films: number; showtimes: number } | null;
  firstDate: string | null;
  lastDate: string | null;
  freshness: Freshness | null;
}

/** What one entry is made of: the market (none without markets) and its snapshot, if it can be read. */
export interface MarketFacts {
  market: Market | undefined;
  snapshot: Snapshot | undefined;
  isDefault: boolean;
  entitled: boolean;
}

/** An entry; throws SnapshotError when the snapshot's sections cannot be read. */
export function marketEntry({ market, snapshot, isDefault, entitled }: MarketFacts): MarketEntry {
  const coverage = snapshot && coverageOf(snapshot);
  const counts = snapshot?.manifest.counts;
  return {
    id: market?.id ?? null,
    name: market?.name ?? null,
    countries: market?.countries ?? coverage?.countries ?? [],
    basePath: basePathOf(market?.id),
    default: isDefault,
    entitled,
    counts: counts ? { cinemas: counts.cinemas, films: counts.films, showtimes: counts.showtimes } : null,
    firstDate: coverage?.firstDate ?? null,
    lastDate: coverage?.lastDate ?? null,
    freshness: snapshot?.manifest.freshness ?? null,
  };
}

/** The freshness over every market's (decision: freshness): the earliest observedAt, the latest sourceUpdatedAt. */
function foldFreshness(entries: readonly MarketEntry[]): Freshness {
  let observed: string | undefined;
  let updated: string | undefined;
  for (const { freshness, counts } of entries) {
    // A market with no records has observed nothing: its epoch would only hide the others' freshness.
    if (!freshness || !counts || counts.cinemas + counts.films + counts.showtimes === 0) continue;
    if (!observed || instantKeyOf(freshness.observedAt) < instantKeyOf(observed)) observed = freshness.observedAt;
    const source = freshness.sourceUpdatedAt;
    if (source && (!updated || instantKeyOf(source) > instantKeyOf(updated))) updated = source;
  }
  // Nothing observed (no market readable, or none with records): the epoch, as an empty snapshot says.
  const observedAt = observed ?? "1970-01-01T00:00:00Z";
  return updated ? { observedAt, sourceUpdatedAt: updated } : { observedAt };
}

/** The body's bytes. */
export function composeMarkets(entries: readonly MarketEntry[]): Buffer {
  return Buffer.from(JSON.stringify({ data: entries, freshness: foldFreshness(entries) }));
}
