/**
 * Body files made on worker threads: assembling, gzip and the entity tag are most of the render
 * stage's work. The main thread sends each body as parts (text and record handles into the
 * shared RecordArena), so it allocates no body bytes of its own: at 2M showtimes those
 * allocations drove the garbage collector through a heap of millions of entries every few
 * seconds. Results resolve in submission order, so what the caller writes stays deterministic.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { encodeParts, type BodyPart } from "./body-parts.js";
import type { RecordArena } from "./record-arena.js";
import { bundleWorkerModule, removeWorkerModule } from "./worker-module.js";

const BATCH_SIZE = 32;

export type { BodyPart } from "./body-parts.js";

export interface BodyPool {
  /** The body file (entity tag, then gzip) of the body the parts spell. */
  encode(parts: BodyPart[]): Promise<Buffer>;
  /** Sends a partly filled batch now (before awaiting a result that may be in it). */
  flush(): void;
  close(): Promise<void>;
}

type Pending = { resolve: (out: Buffer) => void; reject: (error: Error) => void };

/** Encodes on the calling thread: when asked (0 workers), or when the worker cannot be bundled. */
function inlinePool(level: number, arena: RecordArena): BodyPool {
  return { encode: async (parts) => encodeParts(parts, arena, level), flush: () => {}, close: async () => {} };
}

/** A pool of `size` workers over the arena as it is now (call it once every record is stored). */
export async function createBodyPool(level: number, arena: RecordArena, size = availableParallelism()): Promise<BodyPool> {
  const script = size > 0 ? await bundleWorkerModule(new URL("./body-worker.ts", import.meta.url)) : undefined;
  if (!script) return inlinePool(level, arena);
  const workerData = { level, chunks: arena.sharedChunks() };
  const workers = Array.from({ length: size }, () => new Worker(script, { workerData }));
  const batches = new Map<number, Pending[]>();
  let batch: BodyPart[][] = [];
  let waiting: Pending[] = [];
  let nextId = 0;

  for (const worker of workers) {
    worker.on("message", ({ id, out }: { id: number; out: Uint8Array[] }) => {
      const pending = batches.get(id)!;
      batches.delete(id);
      out.forEach((bytes, i) => pending[i]!.resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    });
    worker.on("error", (error) => {
      for (const pending of batches.values()) for (const p of pending) p.reject(error);
      batches.clear();
    });
  }

  function send(): void {
    if (batch.length === 0) return;
    const id = nextId++;
    batches.set(id, waiting);
    workers[id % workers.length]!.postMessage({ id, bodies: batch });
    batch = [];
    waiting = [];
  }

  return {
    encode(parts) {
      return new Promise((resolve, reject) => {
        batch.push(parts);
        waiting.push({ resolve, reject });
        if (batch.length >= BATCH_SIZE) send();
      });
    },
    flush: send,
    async close() {
      // Callers await every result before closing; terminating drops nothing.
      send();
      await Promise.all(workers.map((w) => w.terminate()));
      removeWorkerModule(script);
    },
  };
}
