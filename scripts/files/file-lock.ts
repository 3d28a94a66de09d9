/**
 * A lock file beside a file that several commands read, change and write back (the access file:
 * decision: access file changes). The lock is written whole to a temporary file and linked into
 * place, so it exists complete or not at all, and it names its owner: host, process and a token
 * of this one acquisition. A lock whose owner was a process of this host that is gone (killed
 * mid-way) is taken over; the takeover is itself locked, by a second lock named after the stale
 * lock's token, so that of two processes that found the same stale lock one removes it and the
 * other finds it changed: never both remove it and each go on holding a lock of its own.
 */
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface LockOwner {
  host: string;
  pid: number;
  /** This acquisition's: tells a lock apart from a later one of the same process. */
  token: string;
}

/** Whoever holds a lock: its owner, or "unknown" for a file this module did not write. */
export type LockHolder = LockOwner | "unknown";

/** Gives the lock back. */
export type Unlock = () => void;

/** The lock was held by a live process (or an unknown one) for the whole wait. */
export class LockBusy extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: LockHolder,
  ) {
    super(`${lockFile} is held by ${holder === "unknown" ? "an unknown owner" : `process ${holder.pid}`}`);
  }
}

/** Between two looks at a lock held by someone else: short, and varied so waiting processes spread out. */
const POLL_MS = 20;
/** Tries in a row without a pause while the lock changes hands under this process. */
const MAX_CHANGES = 3;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Only a process of this host can be known to be gone; anyone else's lock is left to them. */
function isGone(owner: LockOwner): boolean {
  return owner.host === hostname() && owner.pid !== process.pid && !isRunning(owner.pid);
}

function isOwner(value: unknown): value is LockOwner {
  const owner = value as LockOwner;
  return (
    typeof owner?.host === "string" &&
    Number.isSafeInteger(owner.pid) &&
    owner.pid > 0 &&
    typeof owner.token === "string" &&
    /^[0-9a-f]{16,64}$/.test(owner.token)
  );
}

/** The lock's holder; undefined when there is no lock. */
export function readLockHolder(lockFile: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(lockFile, "utf8");
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    const value: unknown = JSON.parse(text);
    return isOwner(value) ? value : "unknown";
  } catch {
    return "unknown";
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/** Puts `owner`'s lock in place unless there is one: link() fails when the name exists. */
function linkLock(lockFile: string, owner: LockOwner): boolean {
  const temporary = path.join(path.dirname(lockFile), `.${path.basename(lockFile)}.${owner.token}.tmp`);
  writeFileSync(temporary, `${JSON.stringify(owner)}\n`, { flag: "wx", mode: 0o600 });
  try {
    linkSync(temporary, lockFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    removeQuietly(temporary);
  }
}

function isSameOwner(holder: LockHolder | undefined, owner: LockOwner): boolean {
  return holder !== undefined && holder !== "unknown" && holder.token === owner.token;
}

type Attempt = { unlock: Unlock } | { heldBy: LockHolder } | undefined;

/** One try: the lock, or who holds it; undefined when it changed hands meanwhile (try again at once). */
function attemptLock(lockFile: string): Attempt {
  const owner = { host: hostname(), pid: process.pid, token: randomBytes(8).toString("hex") };
  if (linkLock(lockFile, owner)) {
    return {
      unlock: () => {
        if (isSameOwner(readLockHolder(lockFile), owner)) removeQuietly(lockFile);
      },
    };
  }
  const holder = readLockHolder(lockFile);
  if (holder === undefined) return undefined;
  if (holder === "unknown" || !isGone(holder)) return { heldBy: holder };
  removeStaleLock(lockFile, holder);
  return undefined;
}

/**
 * Removes the lock `stale` owned, unless it is another lock by now. Only the holder of the
 * takeover lock named after `stale`'s token looks and removes, so one stale lock is removed once;
 * a takeover lock left by a process killed in the middle is itself stale and taken over the same way.
 */
export function removeStaleLock(lockFile: string, stale: LockOwner): void {
  const takeover = `${lockFile}.${stale.token}.takeover`;
  // A few tries only: each failure means another process moved on meanwhile.
  for (let tries = 0; tries < 3; tries++) {
    const attempt = attemptLock(takeover);
    if (attempt === undefined) continue;
    // A live process is taking this lock over: the caller looks again shortly.
    if ("heldBy" in attempt) return;
    try {
      if (isSameOwner(readLockHolder(lockFile), stale)) unlinkSync(lockFile);
    } finally {
      attempt.unlock();
    }
    return;
  }
}

/**
 * Takes the lock `lockFile`, waiting up to `waitMs` while a live process holds it (a gone one's is
 * taken over at once); throws LockBusy when it is still held then. Its folder is made if missing.
 */
export async function takeLock(lockFile: string, waitMs: number): Promise<Unlock> {
  mkdirSync(path.dirname(path.resolve(lockFile)), { recursive: true, mode: 0o700 });
  let waited = 0;
  let changes = 0;
  for (;;) {
    const attempt = attemptLock(lockFile);
    if (attempt !== undefined && "unlock" in attempt) return attempt.unlock;
    // Changed hands (given back, or a stale lock removed): try again at once, a few times in a row.
    if (attempt === undefined && ++changes <= MAX_CHANGES) continue;
    changes = 0;
    if (waited >= waitMs) throw new LockBusy(lockFile, attempt?.heldBy ?? readLockHolder(lockFile) ?? "unknown");
    const pause = POLL_MS + Math.floor(Math.random() * POLL_MS);
    await sleep(pause);
    waited += pause;
  }
}
