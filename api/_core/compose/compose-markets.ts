/**
 * The body of `GET /markets` (decision: markets): `{"data": [market, …], "freshness": {…}}`, every
 * market the deployment serves in the order markets.json lists them (one entry, its id null, without
 * markets), each with what its snapshot holds and whether the calling key may use it. Composed per
 * request from what each market's snapshot holds (its summary: the folder's index keeps it, or a
 * snapshot without markets gives it), at most 100 markets, a few hundred bytes each.
 */
import type { Freshness } from "../format/layout/manifest.js";
import type { MarketSummary } from "../format/layout/market-summary.js";
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

/** What one entry is made of. */
export interface MarketFacts {
  /** The market; without markets, its id and name null and its countries its cinemas'. */
  market: { id: string | null; name: string | null; countries: readonly string[] };
  /** What its snapshot holds; undefined while the snapshot cannot be read. */
  summary: MarketSummary | undefined;
  isDefault: boolean;
  entitled: boolean;
}

/** Freshness with its fields in the spec's order, whatever order it was read in. */
const freshnessOf = ({ observedAt, sourceUpdatedAt }: Freshness): Freshness =>
  sourceUpdatedAt === undefined ? { observedAt } : { observedAt, sourceUpdatedAt };

/**
 * What a snapshot holds, as the list says it: the build's for each market's index entry, and the
 * one snapshot's without markets. Throws SnapshotError when its sections cannot be read.
 */
export function summarizeSnapshot(snapshot: Snapshot): MarketSummary {
  const { counts, freshness } = snapshot.manifest;
  const { firstDate, lastDate } = coverageOf(snapshot);
  const held = { cinemas: counts.cinemas, films: counts.films, showtimes: counts.showtimes };
  return { counts: held, firstDate, lastDate, freshness: freshnessOf(freshness) };
}

/** An entry, its fields in the order the body has them. */
export function marketEntry({ market, summary, isDefault, entitled }: MarketFacts): MarketEntry {
  const counts = summary?.counts;
  return {
    id: market.id,
    name: market.name,
    countries: market.countries,
    basePath: basePathOf(market.id ?? undefined),
    default: isDefault,
    entitled,
    counts: counts ? { cinemas: counts.cinemas, films: counts.films, showtimes: counts.showtimes } : null,
    firstDate: summary?.firstDate ?? null,
    lastDate: summary?.lastDate ?? null,
    freshness: summary ? freshnessOf(summary.freshness) : null,
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
