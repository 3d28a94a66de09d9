/**
 * `npm run keys -- [--access FILE] [--push] <command>`: issue and revoke keys, set entitlements
 * and rate limits in the access file, with --push write it to the deployment's Edge Config, and
 * with pull bring it up to date with what another copy pushed (scripts/keys/sync.ts).
 * Exit 0 done; 1 not pushed or pulled: Edge Config could not be read or written (the message says
 * whether the file was written), or holds what another copy pushed since this one last pulled or
 * pushed (nothing written); 2 bad arguments or an access file that cannot be used (its lock held
 * by another command for the whole wait included).
 * A running local server picks the change up within a second; see docs/operations.md for Vercel.
 */
import { parseKeysArgs, USAGE, UsageError, type KeysInvocation } from "./keys/args.js";
import { KeysFailure } from "./keys/failure.js";
import { runKeys } from "./keys/run-keys.js";

function fail(message: string, usage = false, status = 2): never {
  // One line, never a stack trace; the usage is one --help away.
  process.stderr.write(`keys: ${message}${usage ? " (see --help)" : ""}\n`);
  process.exit(status);
}

async function main(): Promise<void> {
  let invocation: KeysInvocation | "help";
  try {
    invocation = parseKeysArgs(process.argv.slice(2));
  } catch (error) {
    fail((error as Error).message, error instanceof UsageError);
  }
  if (invocation === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  await runKeys(invocation, {
    env: process.env,
    now: () => new Date(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}

main().catch((error: unknown) =>
  fail((error as Error).message, false, error instanceof KeysFailure ? error.status : 2),
);
