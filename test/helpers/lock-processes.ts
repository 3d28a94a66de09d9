/** Real processes that take a lock (lock-holder.ts), for the lock's tests and the keys CLI's. */
import type { ChildProcess } from "node:child_process";
import { readLockHolder, type LockOwner } from "../../scripts/files/file-lock.js";
import { entryArgs, startProcess } from "./child-processes.js";

/** `hold LOCK` or `visit LOCK LOG` (lock-holder.ts, bundled), ended with the test if it fails. */
export function runHolder(args: string[]): ChildProcess {
  return startProcess(process.execPath, [...entryArgs("test/helpers/lock-holder.ts"), ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

/** A process holding `lockFile` until a line on its stdin gives it back, or it is killed. */
export async function startHolder(lockFile: string): Promise<ChildProcess> {
  const child = runHolder(["hold", lockFile]);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the holder exited (${code}) before holding the lock`)));
  });
  return child;
}

/** Gives the lock back and waits for the holder to end. */
export async function release(holder: ChildProcess): Promise<void> {
  holder.stdin!.write("release\n");
  await exited(holder);
}

/** Kills the holder outright, as a killed command would be: its lock stays behind. */
export async function kill(holder: ChildProcess): Promise<void> {
  holder.kill("SIGKILL");
  await exited(holder);
}

/** A lock whose holder was killed: what it leaves behind. */
export async function staleLock(lockFile: string): Promise<LockOwner> {
  await kill(await startHolder(lockFile));
  const owner = readLockHolder(lockFile);
  if (owner === undefined || owner === "unknown") throw new Error("the killed holder left no lock");
  return owner;
}
