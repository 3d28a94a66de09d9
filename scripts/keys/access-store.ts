/**
 * Reading and writing the access file. A write replaces the file atomically (replace-file.ts):
 * the running server reads the old file or the new one, never half of one.
 */
import { readFileSync, statSync } from "node:fs";
import { parseAccessFile, type AccessFile } from "../../api/_core/access-file.js";
import { replaceFile } from "../replace-file.js";

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
