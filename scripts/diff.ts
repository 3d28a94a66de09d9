/**
 * `npm run diff -- --from DIR --to DIR`: what changed between two snapshots or data folders.
 * Exit status, for deploy pipelines: 0 no changes, 1 changes, 2 error (bad arguments, unreadable
 * or invalid input), 4 more removed than --fail-if-removed-over allows (review before deploying).
 */
import { parseDiffArgs, USAGE, UsageError } from "./diff/args.js";
import { findRemovalsOver, formatJson, formatText, hasChanges } from "./diff/report.js";
import { runDiff } from "./diff/run-diff.js";

const EXIT_NO_CHANGES = 0;
const EXIT_CHANGES = 1;
const EXIT_ERROR = 2;
const EXIT_REMOVED_OVER_THRESHOLD = 4;

function fail(message: string, usage = false): never {
  // One line, never a stack trace; the usage is one --help away.
  process.stderr.write(`diff: ${message}${usage ? " (see --help)" : ""}\n`);
  process.exit(EXIT_ERROR);
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseDiffArgs(process.argv.slice(2));
  } catch (error) {
    fail((error as Error).message, error instanceof UsageError);
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const result = await runDiff({ ...options, onStatus: (line) => process.stderr.write(`diff: ${line}\n`) });
  process.stdout.write(options.json ? formatJson(result) : formatText(result));
  const over = options.failIfRemovedOver === undefined ? [] : findRemovalsOver(result, options.failIfRemovedOver);
  for (const message of over) process.stderr.write(`diff: ${message}\n`);
  process.exitCode =
    over.length > 0 ? EXIT_REMOVED_OVER_THRESHOLD : hasChanges(result) ? EXIT_CHANGES : EXIT_NO_CHANGES;
}

main().catch((error: unknown) => fail((error as Error).message));
