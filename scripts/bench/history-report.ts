/** The history bench's table and its targets (docs/performance.md, "The changes feed"). */
import type { HistoryFigures } from "./history-step.js";
import { alignRows, scenarioValue, targetOf } from "./report.js";
import type { ScenarioFigures } from "./serve-step.js";

/** Every response of the feed stays under this many bytes (Vercel answers at most 4.5 MB). */
export const FEED_RESPONSE_TARGET = 4_000_000;
export const FULL_COPY_REQUESTS_AT_2M = 450;
export const HISTORY_SHARE_TARGET = 0.15;
export const PREVIOUS_SECONDS_TARGET = 15;

/** The fewest requests a catch-up of `changes` can take at `limit`, plus one: its target. */
export function catchUpBound(changes: number, limit: number): number {
  return Math.ceil(changes / limit) + 1;
}

export const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Seconds --previous adds to a build: the median with it less the median without. */
export function previousCost(h: Pick<HistoryFigures, "withPrevious" | "withoutPrevious">): number {
  return median(h.withPrevious) - median(h.withoutPrevious);
}

const mark = (ok: boolean) => (ok ? "met" : "NOT MET");
const seconds = (xs: readonly number[]) => xs.map((x) => x.toFixed(1)).join(", ");

function historyRows(h: HistoryFigures, limit: number): string[][] {
  const size = h.showtimes.toLocaleString("en-US");
  const isLarge = h.showtimes >= 2e6;
  const walls = h.builds.slice(1).map((b) => b.wallSeconds);
  const share = h.historyBytes / h.snapshotBytes;
  const bound = catchUpBound(h.catchUp.changes, limit);
  const cost = previousCost(h);
  const largest = Math.max(h.fullCopy.largestBytes, h.catchUp.largestBytes);
  const fullCopyMet = mark(h.fullCopy.requests <= FULL_COPY_REQUESTS_AT_2M);
  const fullCopyTarget = `≤ ${FULL_COPY_REQUESTS_AT_2M} requests: ${fullCopyMet}; `;
  return [
    [
      size,
      `${h.steps} days of churn`,
      `builds with --previous ${seconds([Math.min(...walls), median(walls), Math.max(...walls)])} s ` +
        `(min, median, max); last: ${h.builds.at(-1)!.history}`,
      "",
    ],
    [
      size,
      `full copy at limit ${limit}`,
      `${h.fullCopy.requests} requests, ${h.fullCopy.changes} changes, largest body ${largest} B`,
      `${isLarge ? fullCopyTarget : ""}every body ≤ 4 MB: ${mark(largest <= FEED_RESPONSE_TARGET)}`,
    ],
    [
      size,
      "catch-up after a day",
      `${h.catchUp.changes} changes in ${h.catchUp.requests} requests (⌈changes ÷ ${limit}⌉ + 1 = ${bound})`,
      `≤ ${bound}: ${mark(h.catchUp.requests <= bound)}`,
    ],
    [
      size,
      "history.pages",
      `${(h.historyBytes / 2 ** 20).toFixed(2)} MB of ${(h.snapshotBytes / 2 ** 20).toFixed(1)} MB = ` +
        `${(share * 100).toFixed(1)}%`,
      `≤ ${HISTORY_SHARE_TARGET * 100}%: ${mark(share <= HISTORY_SHARE_TARGET)}`,
    ],
    [
      size,
      "--previous adds",
      `${cost.toFixed(1)} s (with: ${seconds(h.withPrevious)} s, history stage ${seconds(h.historyStage)} s; ` +
        `without: ${seconds(h.withoutPrevious)} s)`,
      `≤ ${PREVIOUS_SECONDS_TARGET} s: ${mark(cost <= PREVIOUS_SECONDS_TARGET)}`,
    ],
  ];
}

/** The history bench's rows, with the feed's serving figures on each last snapshot when measured. */
export function formatHistory(
  runs: ReadonlyArray<{ figures: HistoryFigures; feed?: ScenarioFigures[] }>,
  limit: number,
): string {
  const rows: string[][] = [["size", "measure", "value", "target"]];
  for (const { figures, feed } of runs) {
    rows.push(...historyRows(figures, limit));
    for (const f of feed ?? [])
      rows.push([
        figures.showtimes.toLocaleString("en-US"),
        `CPU/request ${f.name}`,
        scenarioValue(f),
        targetOf(feed!, f),
      ]);
  }
  return alignRows(rows);
}
