/**
 * One `npm run keys` invocation, given its environment and output: read, change, write, print,
 * push; or pull. A command that changes, pushes or pulls holds the access file's lock throughout
 * (decision: access file changes).
 */
import { lockAccess, readAccess, writeAccess } from "./access-store.js";
import { lockWaitFromEnvironment, type KeysInvocation } from "./args.js";
import { applyCommand, type FileCommand } from "./commands.js";
import { pushTargetFromEnvironment, type PushTarget } from "./edge-config-push.js";
import { KeysFailure } from "./failure.js";
import { pullAccess, pushOver, readReplaceableItem, type SyncOutput } from "./sync.js";

export interface KeysContext extends SyncOutput {
  env: NodeJS.ProcessEnv;
  now: () => Date;
}

async function changeAndPush(
  accessFile: string,
  command: FileCommand,
  target: PushTarget | undefined,
  context: KeysContext,
): Promise<void> {
  const before = readAccess(accessFile);
  // Compared before anything is written: a push that cannot happen must not leave a half-done change.
  const item = target ? await readReplaceableItem(accessFile, before, target) : undefined;
  const result = applyCommand(before, command, context.now(), accessFile);
  // Written before anything is printed: a key is shown only once it is really stored.
  if (result.access) writeAccess(accessFile, result.access);
  context.stdout(`${result.lines.join("\n")}\n`);
  if (!target) return;
  // This command's own file: the lock keeps any later change (and its push) until this push is done.
  const pushed = result.access ?? before;
  if (!pushed) throw new KeysFailure(`${accessFile} does not exist: nothing to push`, 2);
  await pushOver(target, accessFile, { pushed, item, written: result.access !== undefined }, context);
}

/** Runs one invocation; throws KeysFailure (its exit status) or another error (exit 2). */
export async function runKeys({ accessFile, command, push }: KeysInvocation, context: KeysContext): Promise<void> {
  const pull = command.name === "pull";
  // Checked before anything is written: a push that cannot happen must not leave a half-done change.
  const target = push || pull ? pushTargetFromEnvironment(context.env, pull ? "pull" : "--push") : undefined;
  const waitMs = lockWaitFromEnvironment(context.env);
  // Only a plain list neither writes nor pushes (decision: access file changes).
  const unlock = command.name === "list" && !target ? undefined : await lockAccess(accessFile, waitMs);
  try {
    if (command.name === "pull") await pullAccess(accessFile, target!, context);
    else await changeAndPush(accessFile, command, target, context);
  } finally {
    unlock?.();
  }
}
