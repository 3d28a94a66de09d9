// Compresses batches of buffers off the main thread (plain JS: worker threads load it without tsx).
import { parentPort, workerData } from "node:worker_threads";
import { gzipSync } from "node:zlib";

parentPort.on("message", ({ id, buffers }) => {
  const out = buffers.map((buffer) => gzipSync(buffer, { level: workerData.level }));
  parentPort.postMessage({ id, out });
});
