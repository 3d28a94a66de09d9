/**
 * The build: each stage a function from the previous stage's output to its own, so the types
 * enforce the order (load → validate → link → markets → drop → localize → index → render → history
 * → write; from drop on, once per market: decision: markets). Problems are data, collected from
 * every stage that can find them and printed once by the caller.
 */
import { LIST_RESOURCES, type ListResource, type Manifest } from "../api/_core/format/layout/manifest.js";
import type { MarketsIndex } from "../api/_core/format/layout/markets-index.js";
import { restoreInterruptedSwap } from "../api/_core/format/read/interrupted-swap.js";
import type { BuildOptions, BuildReport, CheckOptions, CheckReport, MarketsBuildReport } from "./build-types.js";
import { Interner } from "./validate/entries.js";
import { previousManifest } from "./history/carry-history.js";
import { linkRecords } from "./link/link-records.js";
import { loadSources } from "./load/load-sources.js";
import { buildEachMarket, checkEachMarket } from "./markets/each-market.js";
import { partitionMarkets } from "./markets/partition-markets.js";
import type { Problem } from "./report/problems.js";
import { localizeMarket, type Stage, stagesOf, writeMarketSnapshot } from "./run-snapshot.js";
import { validateMarkets } from "./validate/markets.js";
import { validateRecords } from "./validate/validate-records.js";

export {
  type BuildOptions,
  type BuildReport,
  type CheckOptions,
  type CheckReport,
  DEFAULT_KEEP,
  type MarketReport,
  type MarketsBuildReport,
  type MarketsReport,
  STAGES,
  type StageName,
} from "./build-types.js";

export type BuildResult =
  | { ok: true; manifest: Manifest; report: BuildReport }
  | {
      ok: true;
      /** The folder's index, and each market's manifest in its order. */
      markets: MarketsIndex;
      manifests: Manifest[];
      /** Over every market: films counted once. */
      counts: Manifest["counts"];
      report: MarketsBuildReport;
    }
  | { ok: false; problems: Problem[] };
export type CheckResult =
  | { ok: true; counts: Manifest["counts"]; report: CheckReport }
  | { ok: false; problems: Problem[] };

/** Load to markets: the records split into markets (one without markets.json), or every problem that stops it. */
async function prepareRecords(options: CheckOptions, stage: Stage) {
  const problems: Problem[] = [];
  const sources = await stage("load", () => loadSources(options.dataDir, problems));
  const valid = await stage("validate", async () => ({
    records: await validateRecords(
      sources,
      {
        workers: options.validateWorkers,
        // With markets, each market's showtimes are made entries only as it is built (held-showtimes.ts).
        holdShowtimes: sources.markets !== undefined,
        onProgress: (n, total) => options.onProgress?.("validate", n, total, true),
        onWorkers: options.onValidationWorkers,
      },
      problems,
      new Interner(),
    ),
    markets: validateMarkets(sources.markets, problems),
  }));
  const linked = stage("link", () => linkRecords(valid.records, problems));
  const split = stage("markets", () => partitionMarkets(linked, valid.markets, problems));
  // Output is made only from data without a single problem: nothing half-valid is ever served.
  if (problems.length > 0) return { ok: false as const, problems };
  return { ok: true as const, split, multi: valid.markets !== undefined, unread: sources.unread };
}

const countsOf = (records: Record<ListResource, readonly unknown[]>) =>
  Object.fromEntries(LIST_RESOURCES.map((r) => [r, records[r].length])) as Manifest["counts"];

/**
 * The data checked as a build checks it, and its report but the history, with nothing written
 * (`--check`). A previous snapshot that a build could not read fails it as it would the build.
 */
export async function checkData(options: CheckOptions): Promise<CheckResult> {
  const stage = stagesOf(options);
  const prepared = await prepareRecords(options, stage);
  if (!prepared.ok) return prepared;
  const { split, unread } = prepared;
  const warnings: Problem[] = [];
  if (prepared.multi) {
    const { counts, report } = checkEachMarket(split, options, stage, warnings);
    return { ok: true, counts, report: { ...report, warnings, unread } };
  }
  previousManifest(options.previous);
  const previous = { dir: options.previous };
  const { records, zoneCounts, dropped } = localizeMarket(split.markets[0]!, previous, options, stage, warnings);
  return { ok: true, counts: countsOf(records), report: { zoneCounts, dropped, warnings, unread } };
}

export async function runBuild(options: BuildOptions): Promise<BuildResult> {
  const stage = stagesOf(options);
  // A --previous that a build killed mid-swap left aside is put back before anyone reads it.
  if (options.previous !== undefined) restoreInterruptedSwap(options.previous);
  try {
    const prepared = await prepareRecords(options, stage);
    if (!prepared.ok) {
      await options.output.abort();
      return prepared;
    }
    const { split, unread } = prepared;
    const warnings: Problem[] = [];
    if (prepared.multi) {
      const built = await buildEachMarket(split, options, stage, warnings);
      return { ok: true, ...built, report: { ...built.report, warnings, unread } };
    }
    const part = split.markets[0]!;
    const previous = { dir: options.previous };
    const localized = localizeMarket(part, previous, options, stage, warnings);
    const { manifest, history } = await writeMarketSnapshot(localized, part, previous, options.output, options, stage);
    await options.output.commit();
    const { zoneCounts, dropped } = localized;
    return { ok: true, manifest, report: { zoneCounts, dropped, warnings, unread, history } };
  } catch (error) {
    await options.output.abort();
    throw error;
  }
}
