/**
 * A body worker: assembles, compresses and tags precomputed bodies off the main thread. A body
 * arrives as parts (body-pool.ts); its records are read where they lie in the build's
 * RecordArena, whose chunks this worker shares. Bundled and started by body-pool.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import { encodeParts, type BodyPart } from "./body-parts.js";
import { RecordArena } from "./record-arena.js";

const { level, chunks } = workerData as { level: number; chunks: SharedArrayBuffer[] };
const arena = RecordArena.over(chunks);

parentPort!.on("message", ({ id, bodies }: { id: number; bodies: BodyPart[][] }) => {
  // Each file in an ArrayBuffer of its own, so it can be transferred back rather than copied.
  const out = bodies.map((parts) => {
    const file = encodeParts(parts, arena, level);
    const own = Buffer.from(new ArrayBuffer(file.length));
    file.copy(own);
    return own;
  });
  parentPort!.postMessage({ id, out }, out.map((file) => file.buffer as ArrayBuffer));
});
