/**
 * Replacing a file so that its readers (a running server, the next release) see the old text or
 * the new, never a part, even if the command is killed or the machine loses power: the text goes
 * to a temporary file in the same folder, is flushed to disk and renamed over the original, and
 * the folder is flushed so that the rename itself survives.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/** Replaces `file` with `text` atomically; a new file gets `mode`, a missing folder is made (owner only). */
export function replaceFile(file: string, text: string, mode = 0o600): void {
  const dir = path.dirname(path.resolve(file));
  const temporary = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
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
    throw error;
  }
  syncFolder(dir);
}

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
