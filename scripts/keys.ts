/**
 * `npm run keys -- [--access FILE] [--push] <command>`: issue and revoke keys, set entitlements
 * and rate limits in the access file, and with --push write it to the deployment's Edge Config.
 * Exit 0 done, 1 written but not pushed, 2 bad arguments or an access file that cannot be used.
 * A running local server picks the change up within a second; see docs/operations.md for Vercel.
 */
import { parseKeysArgs, PUSH_IN_FORCE, USAGE, UsageError, type KeysInvocation } from "./keys/args.js";
import { readAccess, writeAccess } from "./keys/access-store.js";
import { applyCommand } from "./keys/commands.js";
import { pushAccess, pushTargetFromEnvironment } from "./keys/edge-config-push.js";

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
  const { accessFile, command, push } = invocation;
  // Checked before anything is written: a push that cannot happen must not leave a half-done change.
  const target = push ? pushTargetFromEnvironment(process.env) : undefined;
  const before = readAccess(accessFile);
  const result = applyCommand(before, command, new Date(), accessFile);
  // Written before anything is printed: a key is shown only once it is really stored.
  if (result.access) writeAccess(accessFile, result.access);
  process.stdout.write(`${result.lines.join("\n")}\n`);
  const pushed = result.access ?? before;
  if (!target) return;
  if (!pushed) fail(`${accessFile} does not exist: nothing to push`);
  try {
    await pushAccess(target, pushed);
  } catch (error) {
    fail(`${accessFile} was written, but not pushed: ${(error as Error).message}; run the push again`, false, 1);
  }
  // On stderr: a created key stays the last line of stdout (scripts take it with tail -n 1).
  process.stderr.write(`keys: pushed ${accessFile} to Edge Config ${target.edgeConfigId}: in force ${PUSH_IN_FORCE}\n`);
}

main().catch((error: unknown) => fail((error as Error).message));
