/**
 * What the build is told and what it tells back, shared by its orchestrators (run-build.ts,
 * run-snapshot.ts, markets/each-market.ts) and the report's printer: the stages in order, the
 * options, and the reports (decision: markets for a report per market).
 */
import type { BlockLayout } from "./encode/encode-showtimes.js";
import type { ListResource } from "../api/_core/format/layout/manifest.js";
import type { Market } from "../api/_core/format/layout/market-rules.js";
import type { HistoryReport } from "./history/carry-history.js";
import type { DropBefore, DroppedShowtimes } from "./localize/drop-before.js";
import type { ZoneCounts } from "./localize/localize.js";
import type { Problem } from "./report/problems.js";
import type { OutputWriter } from "./write/output-writer.js";

export const STAGES = [
  "load",
  "validate",
  "link",
  "markets",
  "drop",
  "localize",
  "index",
  "places",
  "render",
  "history",
  "write",
] as const;
export type StageName = (typeof STAGES)[number];

/** What checking the data needs: the stages up to localize, which write nothing (`--check`). */
export interface CheckOptions {
  dataDir: string;
  /** Leave out showtimes that start before this instant (decision: upcoming showtimes). */
  dropBefore?: DropBefore;
  /** The snapshot in service, whose changes history the new one carries forward (decision: changes feed). */
  previous?: string;
  validateWorkers?: number;
  /** Told each stage as it begins, with the market it runs for from drop on in a multi-market build. */
  onStage?: (name: StageName, market?: string) => void;
  /** Told how many worker threads validation used (0: the main thread). */
  onValidationWorkers?: (count: number) => void;
  /** `estimated`: the total is an estimate (validation counts records it has not read yet). */
  onProgress?: (stage: StageName, done: number, total?: number, estimated?: boolean) => void;
}

export interface BuildOptions extends CheckOptions {
  output: OutputWriter;
  /** Begin a new changes history (--new-history), whatever `previous` holds. */
  newHistory?: boolean;
  /** What the history keeps: at least this many generations and days (defaults: 30 and 7). */
  keep?: { generations: number; days: number };
  gzipLevel?: number;
  gzipWorkers?: number;
  layout?: BlockLayout;
}

/** One market of a multi-market build or check (decision: markets). */
export interface MarketReport {
  market: Market;
  counts: Record<ListResource, number>;
  dropped?: DroppedShowtimes;
  /** A build's (a check has no history). */
  history?: HistoryReport;
}

export interface MarketsReport {
  markets: MarketReport[];
  /** Films with no showtime in any market: in no snapshot. */
  filmsInNoMarket: number;
}

/** What checking the data tells the operator: all a build does but the history. */
export interface CheckReport {
  /** Over every market. */
  zoneCounts: ZoneCounts;
  /** Without markets (each market has its own). */
  dropped?: DroppedShowtimes;
  /** Problems that do not stop the build (problems.ts WARNING_CODES). */
  warnings: Problem[];
  /** What the data folder holds that the build does not read (load/source-files.ts). */
  unread: string[];
  /** A multi-market build's markets. */
  markets?: MarketsReport;
}

/** What a successful build without markets tells the operator beside its manifest. */
export interface BuildReport extends CheckReport {
  history: HistoryReport;
}

/** What a successful multi-market build tells the operator: each market's history is in its report. */
export interface MarketsBuildReport extends CheckReport {
  markets: MarketsReport;
}

/** What the history keeps unless told otherwise (decision: changes feed). */
export const DEFAULT_KEEP = { generations: 30, days: 7 };
