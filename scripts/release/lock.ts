/**
 * One release at a time per state folder: two at once would build into the same candidate and
 * race to record their deployments. The lock file holds the owner's pid; a lock whose process is
 * gone (a release killed mid-way) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { StateError } from "./state.js";

const LOCK_FILE = "lock";

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function tryCreate(file: string): boolean {
  try {
    const fd = openSync(file, "wx", 0o600);
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Takes the state folder's lock; returns the function that gives it back. */
export function lockState(stateDir: string): () => void {
  mkdirSync(stateDir, { recursive: true });
  const file = path.join(stateDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(file)) return () => rmSync(file, { force: true });
    const owner = Number(readFileSync(file, "utf8").trim());
    if (Number.isSafeInteger(owner) && owner > 0 && isRunning(owner))
      throw new StateError(`another release (process ${owner}) is using ${stateDir}; wait for it to finish`);
    rmSync(file, { force: true });
  }
  throw new StateError(`cannot take the lock ${file}`);
}
