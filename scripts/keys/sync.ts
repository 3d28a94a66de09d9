/**
 * A copy of the access file and Edge Config's item, kept from undoing each other's changes
 * (decision: access file changes): a push replaces only the item this copy last pulled or pushed
 * (or one equal to this copy), and a pull merges the item into this copy, losing no revocation.
 * Edge Config has no conditional write, so the item is read, compared, and written a moment later.
 */
import { accessVersionOf, type AccessFile } from "../../api/_core/gate/access-file.js";
import { readAccess, writeAccess } from "./access-store.js";
import { PUSH_IN_FORCE } from "./args.js";
import { pushAccess, PushError, readItem, type PushTarget } from "./edge-config-push.js";
import { KeysFailure } from "./failure.js";
import { mergeAccess } from "./merge-access.js";
import { canonicalJson, isSameAccess, readSyncRecord, recordSynced } from "./sync-record.js";

export interface SyncOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const pullCommand = (file: string) => `npm run keys -- --access ${file} pull`;

async function readItemOrStop(file: string, target: PushTarget): Promise<AccessFile | undefined> {
  try {
    return await readItem(target);
  } catch (error) {
    if (!(error instanceof PushError)) throw error;
    throw new KeysFailure(`${file} was not changed: cannot read Edge Config's item (${error.message})`, 1);
  }
}

/**
 * Before a command changes anything: the item a push from this copy may replace (undefined when
 * there is none); KeysFailure (exit 1, nothing written) when another copy pushed since this one
 * last pulled or pushed, so that pushing would undo its changes.
 */
export async function readReplaceableItem(
  file: string,
  local: AccessFile | undefined,
  target: PushTarget,
): Promise<AccessFile | undefined> {
  const item = await readItemOrStop(file, target);
  const base = readSyncRecord(file)[target.edgeConfigId];
  // No item: nothing pushed yet, or deleted, so there is nothing to undo.
  if (item === undefined || isSameAccess(item, base) || isSameAccess(item, local)) return item;
  const whose = base
    ? "pushed from another copy of the access file since this one last pulled or pushed " +
      `version ${accessVersionOf(base)}`
    : "which this copy has never pulled or pushed";
  throw new KeysFailure(
    `${file} was not changed: Edge Config ${target.edgeConfigId} holds version ${accessVersionOf(item)}, ` +
      `${whose}, and a push would undo its changes; ` +
      `bring this copy up to date with: ${pullCommand(file)} (a key revoked on either side stays revoked), ` +
      "then run this command again",
    1,
  );
}

function recordOrWarn(file: string, target: PushTarget, access: AccessFile, output: SyncOutput): void {
  try {
    recordSynced(file, target.edgeConfigId, access);
  } catch (error) {
    // The push stands; the next one finds the item equal to this copy, which is allowed too.
    output.stderr(`keys: ${(error as Error).message}\n`);
  }
}

/** Pushes `pushed` over `item` (as readReplaceableItem returned it); says "in force" only after a write. */
export async function pushOver(
  target: PushTarget,
  file: string,
  change: { pushed: AccessFile; item: AccessFile | undefined; written: boolean },
  output: SyncOutput,
): Promise<void> {
  const { pushed, item, written } = change;
  const notPushed = written ? `${file} was written, but not pushed` : `${file} was not pushed`;
  if (item && isSameAccess(item, pushed)) {
    recordOrWarn(file, target, pushed, output);
    output.stderr(
      `keys: Edge Config ${target.edgeConfigId} already holds ${file} (version ${accessVersionOf(pushed)}): ` +
        "nothing to push\n",
    );
    return;
  }
  if (item && accessVersionOf(pushed) <= accessVersionOf(item))
    throw new KeysFailure(
      `${notPushed}: its version ${accessVersionOf(pushed)} is not newer than version ${accessVersionOf(item)} ` +
        `in Edge Config ${target.edgeConfigId}, which instances keep over it; run ${pullCommand(file)}, then push`,
      1,
    );
  try {
    await pushAccess(target, pushed);
  } catch (error) {
    throw new KeysFailure(`${notPushed}: ${(error as Error).message}; run the push again`, 1);
  }
  recordOrWarn(file, target, pushed, output);
  // On stderr: a created key stays the last line of stdout (scripts take it with tail -n 1).
  output.stderr(`keys: pushed ${file} to Edge Config ${target.edgeConfigId}: in force ${PUSH_IN_FORCE}\n`);
}

const sameContent = (a: AccessFile, b: AccessFile) =>
  canonicalJson({ ...a, version: 0 }) === canonicalJson({ ...b, version: 0 });

/**
 * What a pull makes of this copy: the file to write (none when it stays) and the lines to print.
 * `base` is the item as last pulled or pushed here.
 */
export function pulledAccess(
  file: string,
  source: string,
  copies: { local: AccessFile | undefined; base: AccessFile | undefined; item: AccessFile },
): { access?: AccessFile; lines: string[] } {
  const { local, base, item } = copies;
  const itemVersion = accessVersionOf(item);
  if (local === undefined) return { access: item, lines: [`${file}: version ${itemVersion} from ${source}`] };
  if (isSameAccess(local, item)) return { lines: [`${file} is up to date with ${source} (version ${itemVersion})`] };
  const { organizations, keys, conflicts } = mergeAccess(base, local, item);
  const notes = conflicts.map((line) => `conflict: ${line}`);
  const localVersion = accessVersionOf(local);
  const merged = { version: Math.max(localVersion, itemVersion) + 1, organizations, keys };
  if (sameContent(merged, item) && localVersion <= itemVersion)
    return {
      access: item,
      lines: [`${file}: version ${itemVersion} from ${source} (was version ${localVersion})`, ...notes],
    };
  const push = `check it with list, then push it with: npm run keys -- --access ${file} --push list`;
  if (sameContent(merged, local) && localVersion > itemVersion)
    return { lines: [`${file} (version ${localVersion}) holds all of ${source}'s version ${itemVersion}; ${push}`] };
  return {
    access: merged,
    lines: [
      `${file}: version ${localVersion} here merged with version ${itemVersion} from ${source} into version ` +
        `${merged.version}, not pushed yet; ${push}`,
      ...notes,
    ],
  };
}

/** `keys pull`: brings the file up to date with the item, merged, and records the item as pulled. */
export async function pullAccess(file: string, target: PushTarget, output: SyncOutput): Promise<void> {
  const source = `Edge Config ${target.edgeConfigId}`;
  const item = await readItemOrStop(file, target);
  if (item === undefined) {
    output.stdout(`${source} holds no access data yet: nothing to pull; ${file} is unchanged\n`);
    return;
  }
  const local = readAccess(file);
  const base = readSyncRecord(file)[target.edgeConfigId];
  const { access, lines } = pulledAccess(file, source, { local, base, item });
  if (access) writeAccess(file, access);
  recordSynced(file, target.edgeConfigId, item);
  output.stdout(`${lines.join("\n")}\n`);
}
