/**
 * `npm run keys -- [--access FILE] <command>`: issue and revoke keys, set entitlements and rate
 * limits in the access file. Exit 0 done, 2 bad arguments or an access file that cannot be used.
 * A running local server picks the change up within a second; see docs/operations.md for Vercel.
 */
import { parseKeysArgs, USAGE, UsageError } from "./keys/args.js";
import { readAccess, writeAccess } from "./keys/access-store.js";
import { applyCommand } from "./keys/commands.js";

function fail(message: string, usage = false): never {
  // One line, never a stack trace; the usage is one --help away.
  process.stderr.write(`keys: ${message}${usage ? " (see --help)" : ""}\n`);
  process.exit(2);
}

function main(): void {
  let invocation;
  try {
    invocation = parseKeysArgs(process.argv.slice(2));
  } catch (error) {
    fail((error as Error).message, error instanceof UsageError);
  }
  if (invocation === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { accessFile, command } = invocation;
  const result = applyCommand(readAccess(accessFile), command, new Date(), accessFile);
  // Written before anything is printed: a key is shown only once it is really stored.
  if (result.access) writeAccess(accessFile, result.access);
  process.stdout.write(`${result.lines.join("\n")}\n`);
}

try {
  main();
} catch (error) {
  fail((error as Error).message);
}
