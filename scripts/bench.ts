/**
 * `npm run bench`: build and serve at several sizes and print one table (docs/performance.md).
 * Serving is measured as the server's CPU time per request against a bare node:http server
 * sending the same status, headers and bytes, in the same run, with wrk as the load generator.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { describeSnapshot, ensureData, measureBuild } from "./bench/build-step.js";
import { collectFeedScenario } from "./bench/feed-scenario.js";
import { formatGateway, measureGateway } from "./bench/gateway-step.js";
import { formatHistory } from "./bench/history-report.js";
import { type HistoryFigures, measureHistory, SYNC_LIMIT } from "./bench/history-step.js";
import { checkLoadGenerator } from "./bench/load.js";
import { parseHistory, parseSize } from "./bench/options.js";
import { formatTable, RELATIVE_TARGETS, type SizeReport } from "./bench/report.js";
import { measureResponseSizes } from "./bench/response-size.js";
import { collectScenarios } from "./bench/scenarios.js";
import type { Scenario } from "./bench/scenario.js";
import { measurePairedRounds } from "./bench/paired-rounds.js";
import {
  compareWithCeiling,
  type ScenarioFigures,
  measureColdStart,
  measureFunctionColdStart,
  sweepMemory,
  writeBenchAccess,
} from "./bench/serve-step.js";
import { bundle, withServer } from "./bench/server.js";
import { readManifest } from "../api/_core/format/read/snapshot.js";

const USAGE =
  "usage: npm run bench -- [--sizes 20k,200k,2M] [--seconds 5] [--work bench-results] [--no-serve]\n" +
  "                         [--reuse-snapshots] [--gateway-only]\n" +
  "       npm run bench -- --snapshot DIR [--seconds 5] [--work bench-results] [--only PATTERN]\n" +
  "       npm run bench -- --history 200k:30,2M:3 [--seconds 5] [--work bench-results] [--no-serve]";

/**
 * `--snapshot DIR`: a snapshot built elsewhere, served as it is in place of the sizes (one market's
 * folder of a multi-market build: DIR/<id>, as that market's function bundles it).
 */
function existingSnapshot(dir: string): string {
  const resolved = path.resolve(dir);
  if (!existsSync(path.join(resolved, "manifest.json")))
    throw new Error(`--snapshot ${dir} holds no manifest.json: give a snapshot folder (with markets: one market's)`);
  return resolved;
}

function readOptions() {
  try {
    const { values } = parseArgs({
      options: {
        sizes: { type: "string", default: "20k,200k,2M" },
        seconds: { type: "string", default: "5" },
        work: { type: "string", default: "bench-results" },
        "no-serve": { type: "boolean", default: false },
        "reuse-snapshots": { type: "boolean", default: false },
        "gateway-only": { type: "boolean", default: false },
        history: { type: "string" },
        snapshot: { type: "string" },
        only: { type: "string" },
      },
      strict: true,
    });
    const seconds = Number(values.seconds);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60) throw new Error("--seconds must be 1..60");
    return {
      sizes: values.sizes!.split(",").map(parseSize),
      seconds,
      work: path.resolve(values.work!),
      serve: !values["no-serve"],
      reuse: values["reuse-snapshots"]!,
      gatewayOnly: values["gateway-only"]!,
      history: values.history === undefined ? undefined : parseHistory(values.history),
      snapshot: values.snapshot === undefined ? undefined : existingSnapshot(values.snapshot),
      only: values.only === undefined ? undefined : new RegExp(values.only, "i"),
    };
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}

/**
 * `--only PATTERN`: the scenarios whose name matches, with any scenario a kept one is measured
 * against (its relative target's), so one change can be measured in minutes, not the whole run.
 */
function selectScenarios(scenarios: Scenario[], only: RegExp | undefined): Scenario[] {
  if (!only) return scenarios;
  const kept = new Set(scenarios.filter((s) => only.test(s.name)).map((s) => s.name));
  for (const name of [...kept]) {
    const of = RELATIVE_TARGETS[name]?.of;
    if (of) kept.add(of);
  }
  if (kept.size === 0) throw new Error(`--only ${only.source} names no scenario`);
  return scenarios.filter((s) => kept.has(s.name));
}

async function measureServing(
  snapshotDir: string,
  work: string,
  seconds: number,
  functionBytes: number,
  snapshotMb: number,
  only?: RegExp,
): Promise<SizeReport["serve"]> {
  const accessFile = writeBenchAccess(work);
  const scenarios = selectScenarios(await collectScenarios(snapshotDir), only);
  const figures = await withServer(snapshotDir, accessFile, async (url, pid) => {
    const figures = await compareWithCeiling({ url, pid }, work, scenarios, seconds);
    await measurePairedRounds({ url, pid }, work, scenarios, figures, seconds);
    return figures;
  });
  // The memory target's figure, on a server that did nothing else.
  const sweep = await withServer(snapshotDir, accessFile, (url, pid) => sweepMemory(url, pid));
  const fn = await measureFunctionColdStart(snapshotDir, readFileSync(accessFile, "utf8"));
  const cold = await measureColdStart(snapshotDir, accessFile);
  return {
    scenarios: figures,
    sweep,
    coldStartMs: cold.asIs.oursMs,
    bareNodeStartMs: cold.asIs.bareMs,
    coldStartWithoutExtraCaMs: cold.withoutExtraCa?.oursMs,
    bareNodeStartWithoutExtraCaMs: cold.withoutExtraCa?.bareMs,
    functionImportMs: fn.importMs,
    functionFirstResponseMs: fn.firstResponseMs,
    functionBundleMb: snapshotMb + functionBytes / 2 ** 20,
    responses: measureResponseSizes(snapshotDir),
  };
}

/** Writes a run's figures as JSON: `latest.json` (or `latest-history.json`) and a dated copy. */
function writeResult(work: string, kind: "bench" | "history", figures: object): void {
  const result = { date: new Date().toISOString(), cores: availableParallelism(), node: process.version, ...figures };
  const json = `${JSON.stringify(result, null, 2)}\n`;
  writeFileSync(path.join(work, kind === "bench" ? "latest.json" : "latest-history.json"), json);
  writeFileSync(path.join(work, `${kind}-${result.date.slice(0, 19).replace(/:/g, "")}.json`), json);
}

/** `--history`: the changes feed's chain of daily builds at each size, then its feed served from the last. */
async function runHistory(options: ReturnType<typeof readOptions>): Promise<void> {
  if (options.serve) {
    await checkLoadGenerator();
    await bundle();
  }
  const accessFile = writeBenchAccess(options.work);
  const runs: Array<{ figures: HistoryFigures; feed?: ScenarioFigures[] }> = [];
  for (const { showtimes, days } of options.history!) {
    process.stderr.write(`\n== history: ${showtimes.toLocaleString("en-US")} showtimes, ${days} days of churn\n`);
    const { figures, lastSnapshot } = await measureHistory(options.work, showtimes, days, (line) =>
      process.stderr.write(`${line}\n`),
    );
    const run: (typeof runs)[number] = { figures };
    if (options.serve) {
      const scenarios = [await collectFeedScenario(lastSnapshot)];
      run.feed = await withServer(lastSnapshot, accessFile, (url, pid) =>
        compareWithCeiling({ url, pid }, options.work, scenarios, options.seconds),
      );
    }
    runs.push(run);
    process.stderr.write(`${formatHistory([run], SYNC_LIMIT)}\n`);
  }
  process.stdout.write(`\n${formatHistory(runs, SYNC_LIMIT)}\n`);
  writeResult(options.work, "history", { runs });
}

async function main(): Promise<void> {
  const options = readOptions();
  mkdirSync(options.work, { recursive: true });
  if (options.history) return runHistory(options);
  const gateway = await measureGateway();
  process.stderr.write(`${formatGateway(gateway)}\n`);
  if (options.gatewayOnly) return;
  if (options.serve) await checkLoadGenerator();
  const functionBytes = options.serve ? await bundle() : 0;
  const reports: SizeReport[] = [];
  /** A snapshot's report, with its serving figures unless --no-serve. */
  const report = async (snapshotDir: string, showtimes: number, build: SizeReport["build"]) => {
    const measured: SizeReport = { showtimes, build };
    if (options.serve)
      measured.serve = await measureServing(
        snapshotDir,
        options.work,
        options.seconds,
        functionBytes,
        build.snapshotMb,
        options.only,
      );
    reports.push(measured);
    return measured;
  };
  if (options.snapshot) {
    const snapshotDir = options.snapshot;
    const showtimes = readManifest(snapshotDir).counts.showtimes;
    process.stderr.write(`\n== ${snapshotDir}: ${showtimes.toLocaleString("en-US")} showtimes\n`);
    await report(snapshotDir, showtimes, describeSnapshot(snapshotDir, showtimes));
  }
  for (const showtimes of options.snapshot ? [] : options.sizes) {
    process.stderr.write(`\n== ${showtimes.toLocaleString("en-US")} showtimes\n`);
    const dataDir = await ensureData(options.work, showtimes);
    const snapshotDir = path.join(options.work, `snapshot-${showtimes}`);
    // --reuse-snapshots: serve a snapshot an earlier run built (its build figures are then those of
    // the folder as it is).
    const buildFigures =
      options.reuse && existsSync(path.join(snapshotDir, "manifest.json"))
        ? describeSnapshot(snapshotDir, showtimes)
        : await measureBuild(dataDir, snapshotDir, showtimes);
    process.stderr.write(`${formatTable([await report(snapshotDir, showtimes, buildFigures)])}\n`);
  }
  process.stdout.write(`\n${formatTable(reports)}\n`);
  writeResult(options.work, "bench", { gateway, reports });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exit(1);
});
