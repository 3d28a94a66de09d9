/**
 * `npm run release -- --data DIR [--state DIR] [--prod] [--dry-run]`: new data to a live
 * deployment in one command (docs/operations.md, "Deploying"; decision: prebuilt releases).
 * Exit status: 0 released, nothing new, or dry run done; 1 invalid data; 2 usage, state or
 * unexpected problem; 3 a Vercel step failed or its output failed the checks; 4 a resource lost
 * more than --fail-if-removed-over. Nothing is deployed and --state is unchanged unless 0.
 * RELEASE_NOW (a date-time) sets the clock, read here only.
 */
import { parseReleaseArgs, USAGE, UsageError } from "./release/args.js";
import { readNow } from "./release/clock.js";
import { lockState } from "./release/lock.js";
import { MissingCommandError } from "./release/processes.js";
import { runRelease } from "./release/run-release.js";
import { ReleaseStop } from "./release/snapshot-steps.js";
import { StateError } from "./release/state.js";

const print = (line: string) => process.stdout.write(`release: ${line}\n`);

function stop(code: number, message: string): never {
  process.stderr.write(`${message.replace(/^/gm, "release: ")}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  let options;
  let now;
  try {
    options = parseReleaseArgs(process.argv.slice(2));
    now = readNow(process.env);
  } catch (error) {
    if (error instanceof UsageError) stop(2, `${error.message} (see --help)`);
    throw error;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const started = performance.now();
  const unlock = lockState(options.stateDir);
  try {
    process.exitCode = await runRelease({ options, now, project: process.cwd(), env: process.env, print });
  } finally {
    unlock();
  }
  print(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  if (error instanceof ReleaseStop) stop(error.exitCode, error.message);
  if (error instanceof StateError || error instanceof MissingCommandError) stop(2, error.message);
  // Unexpected (disk full, permissions): one line, no stack; the state is as it was.
  stop(2, `failed: ${(error as Error).message}`);
});
