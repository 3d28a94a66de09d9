/**
 * `npm run bench`: build and serve at several sizes and print one table (docs/performance.md).
 * Serving is measured as the server's CPU time per request against a bare node:http server
 * sending the same status, headers and bytes, in the same run, with wrk as the load generator.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { describeSnapshot, ensureData, measureBuild } from "./bench/build-step.js";
import { formatGateway, measureGateway } from "./bench/gateway-step.js";
import { checkLoadGenerator } from "./bench/load.js";
import { spawnUntil, stop } from "./bench/processes.js";
import { formatTable, type SizeReport } from "./bench/report.js";
import { measureResponseSizes } from "./bench/response-size.js";
import { collectScenarios } from "./bench/scenarios.js";
import {
  SERVER_BUNDLE,
  compareWithCeiling,
  measureColdStart,
  measureFunctionColdStart,
  serverArgs,
  sweepMemory,
  writeBenchAccess,
} from "./bench/serve-step.js";

const USAGE =
  "usage: npm run bench -- [--sizes 20k,200k,2M] [--seconds 5] [--work bench-results] [--no-serve] [--reuse-snapshots] [--gateway-only]";

function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.trim());
  if (!match) throw new Error(`bad size ${JSON.stringify(text)}`);
  const unit = match[2]!.toLowerCase() === "k" ? 1e3 : match[2]!.toLowerCase() === "m" ? 1e6 : 1;
  return Math.round(Number(match[1]) * unit);
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
    };
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}

/** Bundles the server and the function as they run in production (no tsx at run time). */
async function bundle(): Promise<number> {
  const common = { bundle: true, platform: "node", packages: "external", logLevel: "warning" } as const;
  // CommonJS, as `npm run serve` bundles it: Node's ESM loader costs a cold start ~15 ms more here.
  await build({ ...common, format: "cjs", entryPoints: ["scripts/serve.ts"], outfile: SERVER_BUNDLE });
  await build({ ...common, format: "esm", entryPoints: ["api/v1.ts"], outfile: "dist/v1.mjs" });
  return statSync("dist/v1.mjs").size;
}

/** Runs `work` against a fresh server process, stopped afterwards. */
async function withServer<T>(
  snapshotDir: string,
  accessFile: string,
  work: (url: string, pid: number) => Promise<T>,
): Promise<T> {
  const server = await spawnUntil("node", serverArgs(snapshotDir, accessFile, 0), /listening on/, {
    LOG_LEVEL: "silent",
  });
  try {
    return await work(/http:\/\/\S+/.exec(server.line)![0], server.child.pid!);
  } finally {
    await stop(server.child);
  }
}

async function measureServing(
  snapshotDir: string,
  work: string,
  seconds: number,
  functionBytes: number,
  snapshotMb: number,
): Promise<SizeReport["serve"]> {
  const accessFile = writeBenchAccess(work);
  const scenarios = collectScenarios(snapshotDir);
  const figures = await withServer(snapshotDir, accessFile, (url, pid) =>
    compareWithCeiling({ url, pid }, work, scenarios, seconds),
  );
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

async function main(): Promise<void> {
  const options = readOptions();
  mkdirSync(options.work, { recursive: true });
  const gateway = await measureGateway();
  process.stderr.write(`${formatGateway(gateway)}\n`);
  if (options.gatewayOnly) return;
  if (options.serve) await checkLoadGenerator();
  const functionBytes = options.serve ? await bundle() : 0;
  const reports: SizeReport[] = [];
  for (const showtimes of options.sizes) {
    process.stderr.write(`\n== ${showtimes.toLocaleString("en-US")} showtimes\n`);
    const dataDir = await ensureData(options.work, showtimes);
    const snapshotDir = path.join(options.work, `snapshot-${showtimes}`);
    // --reuse-snapshots: serve a snapshot an earlier run built (its build figures are then those of the folder as it is).
    const buildFigures =
      options.reuse && existsSync(path.join(snapshotDir, "manifest.json"))
        ? describeSnapshot(snapshotDir, showtimes)
        : await measureBuild(dataDir, snapshotDir, showtimes);
    const report: SizeReport = { showtimes, build: buildFigures };
    if (options.serve)
      report.serve = await measureServing(
        snapshotDir,
        options.work,
        options.seconds,
        functionBytes,
        buildFigures.snapshotMb,
      );
    reports.push(report);
    process.stderr.write(`${formatTable([report])}\n`);
  }
  const table = formatTable(reports);
  process.stdout.write(`\n${table}\n`);
  const result = {
    date: new Date().toISOString(),
    cores: availableParallelism(),
    node: process.version,
    gateway,
    reports,
  };
  writeFileSync(path.join(options.work, "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(
    path.join(options.work, `bench-${result.date.slice(0, 19).replace(/:/g, "")}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exit(1);
});
