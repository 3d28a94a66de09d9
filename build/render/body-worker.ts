/**
 * A body worker: compresses and tags stored bodies off the main thread (gzip is most of a build's
 * render time). Bundled and started by body-pool.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import { encodeStoredBody } from "./encode-body.js";

const { level } = workerData as { level: number };

parentPort!.on("message", ({ id, bodies }: { id: number; bodies: Uint8Array[] }) => {
  const out = bodies.map((body) => encodeStoredBody(body, level));
  parentPort!.postMessage(
    { id, out },
    out.map((b) => b.gzip.buffer as ArrayBuffer),
  );
});
