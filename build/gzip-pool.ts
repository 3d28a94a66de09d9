/**
 * gzip on worker threads: compression is most of the render stage's CPU, and the main thread has
 * rendering and file writes of its own to do meanwhile. Results resolve in submission order, so
 * whatever the caller writes stays deterministic.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { gzipSync } from "node:zlib";

const BATCH_SIZE = 32;

export interface GzipPool {
  gzip(body: Buffer): Promise<Buffer>;
  /** Sends a partly filled batch now (before awaiting a result that may be in it). */
  flush(): void;
  close(): Promise<void>;
}

type Pending = { resolve: (out: Buffer) => void; reject: (error: Error) => void };

/** A pool of `size` workers; size 0 compresses inline (tests, tiny builds). */
export function createGzipPool(level: number, size = Math.max(1, availableParallelism() - 1)): GzipPool {
  if (size === 0) return { gzip: async (body) => gzipSync(body, { level }), flush: () => {}, close: async () => {} };
  const workers = Array.from({ length: size }, () => new Worker(new URL("./gzip-worker.mjs", import.meta.url), { workerData: { level } }));
  const batches = new Map<number, Pending[]>();
  let batch: Buffer[] = [];
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
    workers[id % workers.length]!.postMessage({ id, buffers: batch });
    batch = [];
    waiting = [];
  }

  return {
    gzip(body) {
      return new Promise((resolve, reject) => {
        batch.push(body);
        waiting.push({ resolve, reject });
        if (batch.length >= BATCH_SIZE) send();
      });
    },
    flush: send,
    async close() {
      // Callers await every result before closing; terminating drops nothing.
      send();
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
