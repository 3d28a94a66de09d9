/**
 * The diff of a release of markets (decision: markets, released together): each market of the
 * candidate against the same market of the last release, with `npm run diff` on the two market
 * snapshots, and the removal limit applied to each; a market new to markets.json, or gone from it,
 * is said so. The markets are deployed together, so one market over the limit stops them all.
 */
import { marketDir } from "../../api/_core/format/read/markets-folder.js";
import { type ReleaseContext, step } from "./ship-candidate.js";
import { type Counts, type FolderSummary, formatCounts, type MarketRelease } from "./released-folder.js";
import { compareSnapshots, type DiffSummary, ReleaseStop } from "./snapshot-steps.js";

/** What became of one market since the last release. */
export type MarketChange =
  | { id: string; kind: "same"; snapshotId: string }
  | { id: string; kind: "compared"; diff: DiffSummary; from: string; to: string }
  | { id: string; kind: "new"; why: string; counts: Counts }
  | { id: string; kind: "removed"; counts: Counts };

export interface MarketDiffRequest {
  /** The last release's folder and what it holds (one snapshot, or markets). */
  previous: string;
  released: FolderSummary;
  /** The candidate's folder and its markets. */
  candidate: string;
  built: Extract<FolderSummary, { markets: MarketRelease[] }>;
  removedPercent: number;
}

/**
 * Each candidate market in markets.json's order, then the markets the last release had that it has
 * not. A market whose snapshot id is the one released is the same bytes: no diff is run for it.
 */
export async function diffMarkets(request: MarketDiffRequest): Promise<MarketChange[]> {
  const before = new Map((request.released.markets ?? []).map((market) => [market.id, market]));
  const changes: MarketChange[] = [];
  for (const market of request.built.markets) {
    const last = before.get(market.id);
    if (last?.snapshotId === market.snapshotId)
      changes.push({ id: market.id, kind: "same", snapshotId: last.snapshotId });
    else if (last === undefined) {
      const why = request.released.markets ? "not in the last release" : "the last release had no markets";
      changes.push({ id: market.id, kind: "new", why, counts: market.counts });
    } else {
      const from = marketDir(request.previous, market.id);
      const to = marketDir(request.candidate, market.id);
      const diff = await compareSnapshots({ from, to, removedPercent: request.removedPercent });
      changes.push({ id: market.id, kind: "compared", diff, from, to });
    }
  }
  const kept = new Set(request.built.markets.map((market) => market.id));
  for (const market of before.values())
    if (!kept.has(market.id)) changes.push({ id: market.id, kind: "removed", counts: market.counts });
  return changes;
}

/** The lines of a market's part of the report. */
export function describeMarketChange(change: MarketChange): string[] {
  switch (change.kind) {
    case "same":
      return [`market ${change.id}: no changes (snapshot ${change.snapshotId}, as last released)`];
    case "new":
      return [
        `market ${change.id}: new (${change.why}), nothing to compare with: its history starts afresh; ` +
          formatCounts(change.counts),
      ];
    case "removed":
      return [
        `market ${change.id}: removed from markets.json, no longer deployed ` +
          `(the last release had ${formatCounts(change.counts)} there)`,
      ];
    case "compared":
      return [
        `market ${change.id}:`,
        ...change.diff.text
          .trimEnd()
          .split("\n")
          .map((line) => `  ${line}`),
      ];
  }
}

const isOver = (change: MarketChange): change is Extract<MarketChange, { kind: "compared" }> =>
  change.kind === "compared" && change.diff.over.length > 0;

/** The stop of a release in which markets lost more than allowed: each one's shares and its diff to review. */
function overLimit(tripped: Array<Extract<MarketChange, { kind: "compared" }>>): ReleaseStop {
  const lines = tripped.flatMap((change) => [
    ...change.diff.over.map((reason) => `market ${change.id}: ${reason}`),
    `  review: npm run diff -- --from ${change.from} --to ${change.to}`,
  ]);
  return new ReleaseStop(
    4,
    `${lines.join("\n")}\nnothing was deployed (the markets are released together); ` +
      "if the changes are right, release again with --fail-if-removed-over set above that share",
  );
}

/** The diff step of a release of markets, printed market by market; stops (exit 4) when any market is over. */
export async function diffMarketsStep(context: ReleaseContext, request: MarketDiffRequest): Promise<void> {
  const percent = request.removedPercent;
  const changes = await step(
    context,
    () => diffMarkets(request),
    (found) => {
      const over = found.filter(isOver).map((change) => change.id);
      const what = over.length
        ? `${over.length === 1 ? "market" : "markets"} ${over.join(", ")} lost more than ${percent}% of a resource`
        : `no market lost more than ${percent}% of a resource`;
      return `diff against the last release, market by market: ${what}`;
    },
  );
  for (const line of changes.flatMap(describeMarketChange)) context.print(`  ${line}`);
  const tripped = changes.filter(isOver);
  if (tripped.length > 0) throw overLimit(tripped);
}
