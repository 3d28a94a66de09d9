/**
 * One release at a time per state folder: two at once would build into the same candidate and
 * working folder and race to record their deployments (decision: prebuilt releases). The lock file
 * holds the owner's pid; a lock whose process is gone (a release killed mid-way) is taken over,
 * by one release only: whoever creates the takeover marker of that stale lock removes it, and
 * only if it is still the one it judged stale.
 */
import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { StateError } from "./state.js";

const LOCK_FILE = "lock";

/** The lock as read once: its owner's pid (0 when it holds none) and which file it was. */
interface LockReading {
  owner: number;
  text: string;
  inode: number;
}

function isRunning(pid: number): boolean {
  if (!(Number.isSafeInteger(pid) && pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Creates `file` holding this process's pid; false when it exists already. The pid is written
 * beside it first and linked in, so no reader ever sees the file empty and takes it for stale.
 */
function tryCreate(file: string): boolean {
  const draft = `${file}.${process.pid}.draft`;
  writeFileSync(draft, `${process.pid}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** Reads a lock or marker; undefined when it is gone meanwhile (its owner let it go). */
function readLock(file: string): LockReading | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const text = readFileSync(fd, "utf8");
    // A garbled lock (never written so by a release) has no live owner.
    const owner = /^\d{1,10}\n?$/.test(text) ? Number(text.trim()) : 0;
    return { owner, text, inode: fstatSync(fd).ino };
  } finally {
    closeSync(fd);
  }
}

const sameLock = (a: LockReading | undefined, b: LockReading) => a?.inode === b.inode && a.text === b.text;

/**
 * Removes the stale lock `stale` if this process wins its takeover marker. A lock naming a pid can
 * be removed only by the holder of that pid's marker, so while it is held, the lock read again is
 * still `stale` or has been replaced by a live release's (which is then left alone).
 */
function removeStale(file: string, stateDir: string, stale: LockReading): void {
  const marker = `${file}.takeover-${stale.owner}`;
  if (!tryCreate(marker)) {
    const taker = readLock(marker);
    if (taker === undefined) return;
    if (isRunning(taker.owner))
      throw new StateError(
        `another release (process ${taker.owner}) is taking over ${stateDir}; wait for it to finish`,
      );
    throw new StateError(
      `a takeover of the lock ${file} was interrupted (${marker} is left by process ${taker.owner}, which is gone): ` +
        "if no release is running, remove both files and release again",
    );
  }
  try {
    if (sameLock(readLock(file), stale)) rmSync(file);
  } finally {
    rmSync(marker, { force: true });
  }
}

/** Takes the state folder's lock; returns the function that gives it back. */
export function lockState(stateDir: string): () => void {
  mkdirSync(stateDir, { recursive: true });
  const file = path.join(stateDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(file)) return () => rmSync(file, { force: true });
    const held = readLock(file);
    if (held === undefined) continue;
    if (isRunning(held.owner))
      throw new StateError(`another release (process ${held.owner}) is using ${stateDir}; wait for it to finish`);
    removeStale(file, stateDir, held);
  }
  throw new StateError(`cannot take the lock ${file}: other releases keep taking it; wait and release again`);
}
