/** `npm run bench`: build and serve at several sizes and print one table (scale issue). */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { ensureData, measureBuild } from "./bench/build-step.js";
import { measureJsonServer } from "./bench/json-server-step.js";
import { spawnUntil, stop } from "./bench/processes.js";
import { formatTable, type SizeReport } from "./bench/report.js";
import { measureResponseSizes } from "./bench/response-size.js";
import { SERVER_BUNDLE, collectScenarios, compareWithCeiling, measureColdStart, measureFunctionColdStart, serverArgs, sweepMemory, writeBenchAccess } from "./bench/serve-step.js";

const USAGE = "usage: npm run bench -- [--sizes 20k,200k,2M] [--seconds 5] [--work bench-results] [--no-serve]";

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
      },
      strict: true,
    });
    const seconds = Number(values.seconds);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60) throw new Error("--seconds must be 1..60");
    return { sizes: values.sizes!.split(",").map(parseSize), seconds, work: path.resolve(values.work!), serve: !values["no-serve"] };
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}

/** Bundles the server and the function as they run in production (no tsx at run time). */
async function bundle(): Promise<number> {
  const common = { bundle: true, platform: "node", format: "esm", packages: "external", logLevel: "warning" } as const;
  // CommonJS, as `npm run serve` bundles it: Node's ESM loader costs a cold start ~15 ms more here.
  await build({ ...common, format: "cjs", entryPoints: ["scripts/serve.ts"], outfile: SERVER_BUNDLE });
  await build({ ...common, entryPoints: ["api/v1.ts"], outfile: "dist/v1.mjs" });
  return statSync("dist/v1.mjs").size;
}

async function measureServing(snapshotDir: string, work: string, seconds: number) {
  const accessFile = writeBenchAccess(work);
  const { figures, sweepAfterLoad, cinemaIds } = await withServer(snapshotDir, accessFile, async (url, pid) => {
    const scenarios = await collectScenarios(url);
    const figures = await compareWithCeiling(url, work, scenarios, seconds);
    const sweepAfterLoad = await sweepMemory(url, pid);
    const cinemaIds = scenarios.find((s) => s.name === "get-one")!.paths.map((p) => decodeURIComponent(p.split("/").pop()!));
    return { figures, sweepAfterLoad, cinemaIds };
  });
  // The memory target's figure, on a server that did nothing else: after the load tests the RSS
  // also holds whatever garbage their last scenario left for V8's next full collection.
  const sweep = await withServer(snapshotDir, accessFile, (url, pid) => sweepMemory(url, pid));
  return { figures, sweep, sweepAfterLoad, cinemaIds, accessFile };
}

/** Runs `work` against a fresh server process, stopped afterwards. */
async function withServer<T>(snapshotDir: string, accessFile: string, work: (url: string, pid: number) => Promise<T>): Promise<T> {
  const server = await spawnUntil("node", serverArgs(snapshotDir, accessFile, 0), /listening on/, { LOG_LEVEL: "silent" });
  try {
    return await work(/http:\/\/\S+/.exec(server.line)![0], server.child.pid!);
  } finally {
    await stop(server.child);
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  mkdirSync(options.work, { recursive: true });
  const functionBytes = options.serve ? await bundle() : 0;
  const reports: SizeReport[] = [];
  for (const showtimes of options.sizes) {
    process.stderr.write(`\n== ${showtimes.toLocaleString("en-US")} showtimes\n`);
    const dataDir = await ensureData(options.work, showtimes);
    const snapshotDir = path.join(options.work, `snapshot-${showtimes}`);
    const buildFigures = await measureBuild(dataDir, snapshotDir, showtimes);
    const report: SizeReport = { showtimes, build: buildFigures };
    if (options.serve) {
      const served = await measureServing(snapshotDir, options.work, options.seconds);
      const accessJson = readFileSync(served.accessFile, "utf8");
      const fn = await measureFunctionColdStart(snapshotDir, accessJson);
      const cold = await measureColdStart(snapshotDir, served.accessFile);
      report.serve = {
        scenarios: served.figures.map((f) => ({
          name: f.name, oursRps: f.ours.requestsPerSecond, ceilingRps: f.ceiling.requestsPerSecond, ratio: f.ratio,
          p50Ms: f.ours.p50Ms, p99Ms: f.ours.p99Ms, ceilingP99Ms: f.ceiling.p99Ms,
        })),
        sweep: served.sweep,
        sweepAfterLoad: served.sweepAfterLoad,
        coldStartMs: cold.asIs.oursMs,
        bareNodeStartMs: cold.asIs.bareMs,
        coldStartWithoutExtraCaMs: cold.withoutExtraCa?.oursMs,
        bareNodeStartWithoutExtraCaMs: cold.withoutExtraCa?.bareMs,
        functionImportMs: fn.importMs,
        functionFirstResponseMs: fn.firstResponseMs,
        functionBundleMb: buildFigures.snapshotMb + functionBytes / 2 ** 20,
        responses: measureResponseSizes(snapshotDir),
      };
      if (showtimes === 200_000) {
        const peer = await measureJsonServer(dataDir, options.work, served.cinemaIds, options.seconds);
        const ours = (name: string) => report.serve!.scenarios.find((s) => s.name === name)!.oursRps;
        report.jsonServer = {
          pageRps: peer.page.requestsPerSecond,
          getOneRps: peer.getOne.requestsPerSecond,
          pageRatio: ours("default page") / peer.page.requestsPerSecond,
          getOneRatio: ours("get-one") / peer.getOne.requestsPerSecond,
        };
      }
    }
    reports.push(report);
    process.stderr.write(`${formatTable([report])}\n`);
  }
  const table = formatTable(reports);
  process.stdout.write(`\n${table}\n`);
  const result = { date: new Date().toISOString(), cores: (await import("node:os")).availableParallelism(), node: process.version, reports };
  writeFileSync(path.join(options.work, "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(options.work, `bench-${result.date.slice(0, 19).replace(/:/g, "")}.json`), `${JSON.stringify(result, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exit(1);
});
