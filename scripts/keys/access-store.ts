/**
 * Reading and writing the access file. A write goes to a temporary file in the same folder, is
 * flushed to disk, then renamed over the original: readers (the running server) see the old file
 * or the new one, never half of one, even if the command is killed or the machine loses power.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { parseAccessFile, type AccessFile } from "../../api/_core/access-file.js";

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

/** Flushes a folder's entry table, so a rename in it survives a crash (POSIX; a no-op where unsupported). */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some platforms cannot open or fsync a folder; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Validates and atomically replaces the access file, keeping its permissions (new files: owner only). */
export function writeAccess(file: string, access: AccessFile): void {
  const text = `${JSON.stringify(access, null, 2)}\n`;
  // Never write what the server would refuse to load.
  parseAccessFile(text, file);
  const dir = path.dirname(path.resolve(file));
  let mode = 0o600;
  try {
    mode = statSync(file).mode & 0o777;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const temporary = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    // A first key for a new deployment: its folder (ops/, say) may not exist yet.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fd = openSync(temporary, "wx", mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Already renamed or never created.
    }
    // The code, not the message: Node's message names the temporary file's absolute path.
    throw new AccessFileError(
      `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  syncFolder(dir);
}
