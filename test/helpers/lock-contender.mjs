/**
 * One of several processes that try to take a release lock at the same moment (release-parts.test.ts).
 * Run with the tsx loader: `node --import tsx lock-contender.mjs STATE GO DONE`. It prints "ready",
 * spins until the file GO exists (so every contender starts together), calls lockState(STATE) and
 * prints "took" or "refused <message>", then holds what it got until the file DONE exists: a
 * contender that took the lock keeps it while the others try.
 */
import { existsSync } from "node:fs";
import { lockState } from "../../scripts/release/lock.ts";

const [state, go, done] = process.argv.slice(2);
const pause = new Int32Array(new SharedArrayBuffer(4));

process.stdout.write("ready\n");
while (!existsSync(go)) {
  // Spin without sleeping: the contenders must reach the lock as close together as possible.
}
let unlock;
try {
  unlock = lockState(state);
  process.stdout.write("took\n");
} catch (error) {
  process.stdout.write(`refused ${error.message}\n`);
}
while (!existsSync(done)) Atomics.wait(pause, 0, 0, 5);
unlock?.();
