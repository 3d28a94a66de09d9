/**
 * Stored bodies made on worker threads: gzip and the entity tag are most of the render stage's
 * work. The main thread renders each body and hands its bytes over (transferred, not copied);
 * results resolve in submission order, so what the caller writes stays deterministic.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { StoredBody } from "../../api/_core/format/layout/body-index.js";
import { encodeStoredBody } from "./encode-body.js";
import { bundleWorkerModule, removeWorkerModule } from "../worker-module.js";

const BATCH_SIZE = 32;

export interface BodyPool {
  encode(body: Uint8Array): Promise<StoredBody>;
  /** Sends a partly filled batch now (before awaiting a result that may be in it). */
  flush(): void;
  close(): Promise<void>;
}

type Pending = { resolve: (out: StoredBody) => void; reject: (error: Error) => void };

/** Encodes on the calling thread: when asked (0 workers), or when the worker cannot be bundled. */
function inlinePool(level: number): BodyPool {
  return { encode: async (body) => encodeStoredBody(body, level), flush: () => {}, close: async () => {} };
}

export async function createBodyPool(level: number, size = availableParallelism()): Promise<BodyPool> {
  const script = size > 0 ? await bundleWorkerModule(new URL("./body-worker.ts", import.meta.url)) : undefined;
  if (!script) return inlinePool(level);
  const workers = Array.from({ length: size }, () => new Worker(script, { workerData: { level } }));
  const batches = new Map<number, Pending[]>();
  let batch: Uint8Array[] = [];
  let waiting: Pending[] = [];
  let nextId = 0;

  for (const worker of workers) {
    worker.on("message", ({ id, out }: { id: number; out: StoredBody[] }) => {
      const pending = batches.get(id)!;
      batches.delete(id);
      // Transferred buffers arrive as Uint8Arrays: view them as Buffers again.
      out.forEach((body, i) =>
        pending[i]!.resolve({
          etag: body.etag,
          gzip: Buffer.from(body.gzip.buffer, body.gzip.byteOffset, body.gzip.byteLength),
        }),
      );
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
    workers[id % workers.length]!.postMessage(
      { id, bodies: batch },
      batch.map((b) => b.buffer as ArrayBuffer),
    );
    batch = [];
    waiting = [];
  }

  return {
    encode(body) {
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
      removeWorkerModule(script);
    },
  };
}
