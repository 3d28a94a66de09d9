/**
 * Reading and writing the access file. A write replaces the file atomically (replace-file.ts):
 * the running server reads the old file or the new one, never half of one. A command that changes
 * or pushes it holds its lock from the read to the end of the push (decision: access file changes).
 */
import { readFileSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { parseAccessFile, type AccessFile } from "../../api/_core/gate/access-file.js";
import { LockBusy, type LockHolder, takeLock, type Unlock } from "../files/file-lock.js";
import { replaceFile } from "../files/replace-file.js";

/** How long a command waits for another to finish with the access file: longer than a slow push takes. */
export const LOCK_WAIT_MS = 30_000;

/** A problem with the access file itself: one line and exit status 2. */
export class AccessFileError extends Error {}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

/** Reads and validates the access file; `undefined` when it does not exist yet. */
export function readAccess(file: string): AccessFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new AccessFileError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parseAccessFile(text, file);
  } catch (error) {
    throw new AccessFileError((error as Error).message);
  }
}

/** Validates and atomically replaces the access file, keeping its permissions (new files: owner only). */
export function writeAccess(file: string, access: AccessFile): void {
  const text = `${JSON.stringify(access, null, 2)}\n`;
  // Never write what the server would refuse to load.
  parseAccessFile(text, file);
  let mode = 0o600;
  try {
    mode = statSync(file).mode & 0o777;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  try {
    // A first key for a new deployment: its folder (ops/, say) may not exist yet; replaceFile makes it.
    replaceFile(file, text, mode);
  } catch (error) {
    // The code, not the message: Node's message names the temporary file's absolute path.
    throw new AccessFileError(
      `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** The lock of an access file: beside it, so every command that names the file finds the same one. */
export function lockFileOf(file: string): string {
  return `${file}.lock`;
}

/**
 * Takes the access file's lock, waiting up to `waitMs` for a command that holds it; AccessFileError if it is still
 * held.
 */
export async function lockAccess(file: string, waitMs = LOCK_WAIT_MS): Promise<Unlock> {
  const lockFile = lockFileOf(file);
  try {
    return await takeLock(lockFile, waitMs);
  } catch (error) {
    if (error instanceof LockBusy) throw new AccessFileError(busyMessage(file, error, waitMs));
    // The code, not the message: Node's message names the temporary file's absolute path.
    throw new AccessFileError(
      `cannot lock ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** The holder of a lock as the message names it: its host only when that is another machine. */
function describeHolder(holder: LockHolder): string {
  if (holder === "unknown") return "an unknown owner";
  const elsewhere = holder.host === hostname() ? "" : ` on ${holder.host}`;
  return `another keys command (process ${holder.pid}${elsewhere})`;
}

function busyMessage(file: string, busy: LockBusy, waitMs: number): string {
  return (
    `${file} was not changed: ${describeHolder(busy.holder)} held its lock for ${waitMs / 1000} s; ` +
    `run the command again once that one has finished (if none is running, remove ${busy.lockFile})`
  );
}
