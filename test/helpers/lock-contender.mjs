/**
 * One of several processes that try to take a release lock at the same moment (release-parts.test.ts).
 * Run as its bundle (helpers/entry-bundles.ts): `node lock-contender.mjs STATE GO DONE`. It prints
 * "ready", spins until the file GO exists (so every contender starts together), calls
 * lockState(STATE) and prints "took" or "refused <message>", then holds what it got until the file
 * DONE exists: a contender that took the lock keeps it while the others try. Whenever it waits, it
 * stops as soon as the test process that started it is gone, so a test that failed or timed out
 * leaves no contender spinning.
 */
import { existsSync } from "node:fs";
import { lockState } from "../../scripts/release/lock.ts";

const [state, go, done] = process.argv.slice(2);
const pause = new Int32Array(new SharedArrayBuffer(4));
const parent = process.ppid;

/** The test process is gone when this one has another parent (the one orphans are given to). */
function stopIfOrphaned() {
  if (process.ppid !== parent) process.exit(3);
}

process.stdout.write("ready\n");
while (!existsSync(go)) {
  // Spin without sleeping: the contenders must reach the lock as close together as possible.
  stopIfOrphaned();
}
let unlock;
try {
  unlock = lockState(state);
  process.stdout.write("took\n");
} catch (error) {
  process.stdout.write(`refused ${error.message}\n`);
}
while (!existsSync(done)) {
  stopIfOrphaned();
  Atomics.wait(pause, 0, 0, 5);
}
unlock?.();
