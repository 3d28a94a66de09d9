/** `npm run build -- --data DIR --out DIR`: validate the sources and compile the snapshot (`--help`: every flag). */
import { refreshPublicDocs } from "./openapi/openapi.js";
import {
  type BuildCliOptions,
  helpText,
  previousSnapshotOf,
  readBuildOptions,
  USAGE,
  UsageError,
} from "./cli-options.js";
import { createDiskWriter } from "./write/output-writer.js";
import { formatBuildReport } from "./report/build-report.js";
import { formatReport, formatWarnings, type Problem } from "./report/problems.js";
import { createProgress, type Progress } from "./report/progress.js";
import type { Manifest } from "../api/_core/format/layout/manifest.js";
import { type CheckReport, checkData, runBuild } from "./run-build.js";

function fail(message: string): never {
  process.stderr.write(`build: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function readOptions(): BuildCliOptions {
  let options: BuildCliOptions | "help";
  try {
    options = readBuildOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) fail(error.message);
    throw error;
  }
  if (options === "help") {
    process.stdout.write(helpText());
    process.exit(0);
  }
  return options;
}

/** Invalid data: every problem, exit 1, nothing written. */
function stopOnProblems(problems: Problem[]): never {
  process.stderr.write(`${formatReport(problems)}\n`);
  process.exit(1);
}

function printWarnings(warnings: Problem[]): void {
  if (warnings.length > 0) process.stderr.write(`${formatWarnings(warnings)}\n`);
}

const progressHooks = (progress: Progress) => ({
  onStage: (name: string, market?: string) => progress.stage(name, market === undefined ? name : `${name} ${market}`),
  onProgress: (stage: string, done: number, total?: number, estimated?: boolean) =>
    progress.tick(stage, done, total, estimated),
});

/** What a build or check holds, over every market when it has markets (each market's counts follow in the report). */
function countsLine(counts: Manifest["counts"], report: CheckReport): string {
  const markets = report.markets ? `${report.markets.markets.length} markets, ` : "";
  return (
    `${markets}${counts.cinemas} cinemas, ${counts.films} films, ${counts.showtimes} showtimes, ` +
    `${counts.attributes} attributes`
  );
}

/** `--check`: the stages that find problems, their report, nothing written (not even a swap put back). */
async function check(options: BuildCliOptions, progress: Progress): Promise<void> {
  const result = await checkData({
    dataDir: options.dataDir,
    dropBefore: options.dropBefore,
    previous: previousSnapshotOf(options),
    ...progressHooks(progress),
  });
  progress.finish();
  if (!result.ok) stopOnProblems(result.problems);
  process.stdout.write(
    `checked ${options.dataDir}: ${countsLine(result.counts, result.report)}; nothing was written\n`,
  );
  process.stdout.write(formatBuildReport(result.report));
  printWarnings(result.report.warnings);
}

async function build(options: BuildCliOptions, progress: Progress): Promise<void> {
  const started = Date.now();
  // Made first: it puts back a snapshot a killed build left aside, which may be the previous one.
  const writer = createDiskWriter(options.outDir);
  const result = await runBuild({
    dataDir: options.dataDir,
    dropBefore: options.dropBefore,
    previous: previousSnapshotOf(options),
    newHistory: options.newHistory,
    keep: options.keep,
    output: writer,
    gzipLevel: options.gzipLevel,
    gzipWorkers: options.gzipWorkers,
    ...progressHooks(progress),
  });
  progress.finish();
  if (!result.ok) stopOnProblems(result.problems);
  // The OpenAPI document is generated at build time, so a deploy ships a current one.
  refreshPublicDocs((message) => process.stderr.write(message));
  const counts = "markets" in result ? result.counts : result.manifest.counts;
  const { files, bytes } = writer.stats();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `built ${options.outDir}: ${countsLine(counts, result.report)}; ` +
      `${files} files, ${(bytes / 1e6).toFixed(1)} MB in ${seconds} s\n`,
  );
  process.stdout.write(formatBuildReport(result.report));
  printWarnings(result.report.warnings);
}

async function main(): Promise<void> {
  const options = readOptions();
  const progress = createProgress(process.stderr, options.quiet);
  await (options.check ? check(options, progress) : build(options, progress));
}

main().catch((error: unknown) => {
  // An unexpected failure (disk full, permissions): one line, no stack; the old snapshot is untouched.
  process.stderr.write(`build: failed: ${(error as Error).message}\n`);
  process.exit(2);
});
