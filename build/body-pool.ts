/**
 * Body files made on worker threads: assembling, gzip and the entity tag are most of the render
 * stage's work. The main thread sends each body as parts (text and record handles into the
 * shared RecordArena), so it allocates no body bytes of its own: at 2M showtimes those
 * allocations drove the garbage collector through a heap of millions of entries every few
 * seconds. Results resolve in submission order, so what the caller writes stays deterministic.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { encodeBodyFile, ETAG_LENGTH } from "../api/_core/body-file.js";
import { joinBodyParts } from "../api/_core/render-body.js";
import { ARENA_LAYOUT, type RecordArena } from "./record-arena.js";

const BATCH_SIZE = 32;

/** Literal text, or the handle of a record in the arena. */
export type BodyPart = string | number;

export interface BodyPool {
  /** The body file (entity tag, then gzip) of the body the parts spell. */
  encode(parts: BodyPart[]): Promise<Buffer>;
  /** Sends a partly filled batch now (before awaiting a result that may be in it). */
  flush(): void;
  close(): Promise<void>;
}

type Pending = { resolve: (out: Buffer) => void; reject: (error: Error) => void };

/** Encodes on the calling thread: tests and tiny builds, where threads cost more than they save. */
function inlinePool(level: number, arena: RecordArena): BodyPool {
  const join = (parts: BodyPart[]) => joinBodyParts(parts.map((part) => (typeof part === "number" ? arena.bytes(part) : part)));
  return { encode: async (parts) => encodeBodyFile(join(parts), level), flush: () => {}, close: async () => {} };
}

/** A pool of `size` workers over the arena as it is now (call it once every record is stored). */
export function createBodyPool(level: number, arena: RecordArena, size = availableParallelism()): BodyPool {
  if (size === 0) return inlinePool(level, arena);
  const workerData = { level, chunks: arena.sharedChunks(), layout: ARENA_LAYOUT, etagLength: ETAG_LENGTH };
  const workers = Array.from({ length: size }, () => new Worker(new URL("./body-worker.mjs", import.meta.url), { workerData }));
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
    },
  };
}
