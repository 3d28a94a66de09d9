/**
 * scripts/files/file-lock.ts (decision: access file changes): a lock held by a live process is waited
 * for, one left by a killed process is taken over, and the takeover is atomic: a stale lock is
 * removed once, so two processes never both hold the lock. Holders are real processes
 * (helpers/lock-holder.ts), killed for real.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LockBusy, readLockHolder, removeStaleLock, takeLock } from "../scripts/files/file-lock.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { exited, release, runHolder, staleLock, startHolder } from "./helpers/lock-processes.js";

let root: string;
let count = 0;
/** A fresh folder per test: what is left in it is what the test left. */
const freshLock = () => {
  const dir = path.join(root, `case-${++count}`);
  return { dir, lockFile: path.join(dir, "access.json.lock") };
};

beforeAll(() => {
  root = makeTempDir("file-lock");
});
afterAll(() => removeDir(root));

describe("a lock held by a live process", () => {
  test("is waited for, then refused with LockBusy naming the holder; once given back it is free", async () => {
    const { lockFile } = freshLock();
    const holder = await startHolder(lockFile);
    try {
      const refused = await takeLock(lockFile, 100).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(LockBusy);
      expect(refused).toMatchObject({ lockFile, holder: { pid: holder.pid } });
    } finally {
      await release(holder);
    }
    const unlock = await takeLock(lockFile, 1_000);
    unlock();
    expect(existsSync(lockFile)).toBe(false);
  });

  test("a file this module did not write is never taken over", async () => {
    const { dir, lockFile } = freshLock();
    mkdirSync(dir, { recursive: true });
    writeFileSync(lockFile, "42\n");
    const refused = await takeLock(lockFile, 0).catch((error: unknown) => error);
    expect(refused).toMatchObject({ holder: "unknown" });
    expect(readFileSync(lockFile, "utf8")).toBe("42\n");
  });
});

describe("a lock left by a killed process", () => {
  test("is taken over at once, and nothing is left behind", async () => {
    const { dir, lockFile } = freshLock();
    await staleLock(lockFile);
    const unlock = await takeLock(lockFile, 0);
    expect(readLockHolder(lockFile)).toMatchObject({ pid: process.pid });
    unlock();
    expect(readdirSync(dir)).toEqual([]);
  });

  test("is removed once: a process that found it stale too late leaves the new holder's lock alone", async () => {
    const { lockFile } = freshLock();
    const stale = await staleLock(lockFile);
    const unlock = await takeLock(lockFile, 0);
    const mine = readLockHolder(lockFile);
    // What a second process does with what it read before the first took over.
    removeStaleLock(lockFile, stale);
    expect(readLockHolder(lockFile)).toEqual(mine);
    unlock();
  });

  test("a takeover cut short by a kill is itself taken over", async () => {
    const { dir, lockFile } = freshLock();
    const stale = await staleLock(lockFile);
    await staleLock(`${lockFile}.${stale.token}.takeover`);
    const unlock = await takeLock(lockFile, 0);
    expect(readLockHolder(lockFile)).toMatchObject({ pid: process.pid });
    unlock();
    expect(readdirSync(dir)).toEqual([]);
  });

  test("processes that find it at once hold it one at a time", async () => {
    const { dir, lockFile } = freshLock();
    await staleLock(lockFile);
    const log = path.join(dir, "visits.log");
    const visitors = Array.from({ length: 6 }, () => runHolder(["visit", lockFile, log]));
    expect(await Promise.all(visitors.map(exited))).toEqual(visitors.map(() => 0));
    const lines = readFileSync(log, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(12);
    // Each enter is followed by the same process's leave: no two visits overlap.
    for (let i = 0; i < lines.length; i += 2) expect(lines[i + 1]).toBe(lines[i]!.replace("enter", "leave"));
    expect(readdirSync(dir)).toEqual(["visits.log"]);
  });
});

test("a folder that does not exist yet is made for the lock", async () => {
  const { dir } = freshLock();
  const unlock = await takeLock(path.join(dir, "deeper", "access.json.lock"), 0);
  unlock();
  expect(readdirSync(path.join(dir, "deeper"))).toEqual([]);
});
