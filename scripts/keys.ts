/**
 * `npm run keys -- [--access FILE] [--push] <command>`: issue and revoke keys, set entitlements
 * and rate limits in the access file, and with --push write it to the deployment's Edge Config.
 * Exit 0 done, 1 written but not pushed, 2 bad arguments or an access file that cannot be used
 * (its lock held by another command for the whole wait included).
 * A running local server picks the change up within a second; see docs/operations.md for Vercel.
 */
import {
  lockWaitFromEnvironment,
  parseKeysArgs,
  PUSH_IN_FORCE,
  USAGE,
  UsageError,
  type KeysCommand,
  type KeysInvocation,
} from "./keys/args.js";
import { lockAccess, readAccess, writeAccess } from "./keys/access-store.js";
import { applyCommand } from "./keys/commands.js";
import { pushAccess, pushTargetFromEnvironment, type PushTarget } from "./keys/edge-config-push.js";

/** A failure with its exit status, thrown so that the lock is given back before the process exits. */
class KeysFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function fail(message: string, usage = false, status = 2): never {
  // One line, never a stack trace; the usage is one --help away.
  process.stderr.write(`keys: ${message}${usage ? " (see --help)" : ""}\n`);
  process.exit(status);
}

/** Read, change, write, print, push: under the file's lock, so no other command's change comes between. */
async function changeAndPush(accessFile: string, command: KeysCommand, target: PushTarget | undefined): Promise<void> {
  const before = readAccess(accessFile);
  const result = applyCommand(before, command, new Date(), accessFile);
  // Written before anything is printed: a key is shown only once it is really stored.
  if (result.access) writeAccess(accessFile, result.access);
  process.stdout.write(`${result.lines.join("\n")}\n`);
  if (!target) return;
  // This command's own file: the lock keeps any later change (and its push) until this push is done.
  const pushed = result.access ?? before;
  if (!pushed) throw new KeysFailure(`${accessFile} does not exist: nothing to push`, 2);
  try {
    await pushAccess(target, pushed);
  } catch (error) {
    throw new KeysFailure(
      `${accessFile} was written, but not pushed: ${(error as Error).message}; run the push again`,
      1,
    );
  }
  // On stderr: a created key stays the last line of stdout (scripts take it with tail -n 1).
  process.stderr.write(`keys: pushed ${accessFile} to Edge Config ${target.edgeConfigId}: in force ${PUSH_IN_FORCE}\n`);
}

async function run({ accessFile, command, push }: KeysInvocation): Promise<void> {
  // Checked before anything is written: a push that cannot happen must not leave a half-done change.
  const target = push ? pushTargetFromEnvironment(process.env) : undefined;
  const waitMs = lockWaitFromEnvironment(process.env);
  // Only a plain list neither writes nor pushes (decision: access file changes).
  const unlock = command.name === "list" && !target ? undefined : await lockAccess(accessFile, waitMs);
  try {
    await changeAndPush(accessFile, command, target);
  } finally {
    unlock?.();
  }
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
  await run(invocation);
}

main().catch((error: unknown) =>
  fail((error as Error).message, false, error instanceof KeysFailure ? error.status : 2),
);
