/**
 * A process that takes a lock with scripts/files/file-lock.ts, for tests with real processes:
 * `hold LOCK` prints "held" and keeps the lock until a line arrives on stdin (or it is killed);
 * `visit LOCK LOG` appends "enter PID" and, a moment later, "leave PID" to LOG while holding it.
 */
import { appendFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { takeLock } from "../../scripts/files/file-lock.js";
import { scaled } from "./deadlines.js";

const [mode, lockFile, log] = process.argv.slice(2);
const unlock = await takeLock(lockFile!, scaled(60_000));
if (mode === "hold") {
  process.stdout.write("held\n");
  process.stdin.once("data", () => {
    unlock();
    process.exit(0);
  });
} else {
  appendFileSync(log!, `enter ${process.pid}\n`);
  // Long enough for a second holder, if there were one, to write its line in between.
  await sleep(30);
  appendFileSync(log!, `leave ${process.pid}\n`);
  unlock();
}
