/** `npm run build -- --data DIR --out DIR`: validate the sources and compile the snapshot. */
import { parseArgs } from "node:util";
import { refreshPublicDocs } from "./openapi/openapi.js";
import { createDiskWriter } from "./write/output-writer.js";
import { checkDateTime } from "../api/_core/format/primitives/date-time.js";
import { formatBuildReport } from "./report/build-report.js";
import { formatReport, formatWarnings } from "./report/problems.js";
import { createProgress } from "./report/progress.js";
import { DEFAULT_KEEP, runBuild } from "./run-build.js";

const USAGE =
  "usage: npm run build -- --data DIR --out DIR [--previous DIR] [--drop-before DATE-TIME] " +
  "[--keep-generations N] [--keep-days N] [--gzip-level 1..9] [--gzip-workers 0..8] [--quiet]";

function fail(message: string): never {
  process.stderr.write(`build: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function readOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        data: { type: "string", default: "data" },
        out: { type: "string", default: "snapshot" },
        "gzip-level": { type: "string", default: "6" },
        "gzip-workers": { type: "string" },
        "drop-before": { type: "string" },
        previous: { type: "string" },
        "keep-generations": { type: "string", default: String(DEFAULT_KEEP.generations) },
        "keep-days": { type: "string", default: String(DEFAULT_KEEP.days) },
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const gzipLevel = Number(values["gzip-level"]);
  if (!/^[1-9]$/.test(values["gzip-level"]!)) fail("--gzip-level must be a whole number from 1 to 9");
  if (values.data === "" || values.out === "") fail("--data and --out must not be empty");
  const workers = values["gzip-workers"];
  if (workers !== undefined && !/^[0-8]$/.test(workers)) fail("--gzip-workers must be a whole number from 0 to 8");
  const dropBefore = values["drop-before"];
  let dropBeforeKey: string | undefined;
  if (dropBefore !== undefined) {
    const check = checkDateTime(dropBefore);
    if (!check.ok)
      fail(`--drop-before must be a date-time with a zone, such as 2026-11-24T06:00:00Z (${check.reason})`);
    dropBeforeKey = check.instantKey;
  }
  const keep = { generations: Number(values["keep-generations"]), days: Number(values["keep-days"]) };
  if (!/^[0-9]{1,5}$/.test(values["keep-generations"]!) || keep.generations < 1)
    fail("--keep-generations must be a whole number from 1 to 99999");
  if (!/^[0-9]{1,4}$/.test(values["keep-days"]!)) fail("--keep-days must be a whole number from 0 to 9999");
  if (values.previous === "") fail("--previous must not be empty");
  return {
    previous: values.previous,
    keep,
    dropBefore: dropBefore === undefined ? undefined : { text: dropBefore, key: dropBeforeKey! },
    dataDir: values.data!,
    outDir: values.out!,
    gzipLevel,
    gzipWorkers: workers === undefined ? undefined : Number(workers),
    quiet: values.quiet!,
  };
}

async function main(): Promise<void> {
  const options = readOptions();
  const started = Date.now();
  const writer = createDiskWriter(options.outDir);
  const progress = createProgress(process.stderr, options.quiet);
  const result = await runBuild({
    dataDir: options.dataDir,
    dropBefore: options.dropBefore,
    previous: options.previous,
    keep: options.keep,
    output: writer,
    gzipLevel: options.gzipLevel,
    gzipWorkers: options.gzipWorkers,
    onStage: (name) => progress.stage(name),
    onProgress: (stage, done, total, estimated) => progress.tick(stage, done, total, estimated),
  });
  progress.finish();
  if (!result.ok) {
    process.stderr.write(`${formatReport(result.problems)}\n`);
    process.exit(1);
  }
  // The OpenAPI document is generated at build time, so a deploy ships a current one.
  refreshPublicDocs((message) => process.stderr.write(message));
  const { counts } = result.manifest;
  const { files, bytes } = writer.stats();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `built ${options.outDir}: ${counts.cinemas} cinemas, ${counts.films} films, ${counts.showtimes} showtimes, ` +
      `${counts.attributes} attributes; ${files} files, ${(bytes / 1e6).toFixed(1)} MB in ${seconds} s\n`,
  );
  process.stdout.write(formatBuildReport(result.report));
  if (result.report.warnings.length > 0) process.stderr.write(`${formatWarnings(result.report.warnings)}\n`);
}

main().catch((error: unknown) => {
  // An unexpected failure (disk full, permissions): one line, no stack; the old snapshot is untouched.
  process.stderr.write(`build: failed: ${(error as Error).message}\n`);
  process.exit(2);
});
