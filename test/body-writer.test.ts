/**
 * The body writer keeps bodies.blocks in submission order whatever order the pool finishes in
 * (so a snapshot is byte for byte reproducible), and holds at most a bounded number in flight:
 * `add` stops resolving once that many are waiting on the pool, whatever the number of bodies.
 * The bound itself is the writer's to tune; the tests measure it rather than restate it.
 */
import { describe, expect, test } from "vitest";
import type { StoredBodyWriter } from "../build/encode/stored-body-writer.js";
import type { BodyPool } from "../build/render/body-pool.js";
import { BodyWriter } from "../build/render/body-writer.js";

/** What the writer wrote, as `key=body` lines in order. */
function recordingBodies() {
  const written: string[] = [];
  const bodies = {
    add: (key: Buffer, body: { gzip: Buffer }) => written.push(`${key.toString()}=${body.gzip.toString()}`),
  } as unknown as StoredBodyWriter;
  return { written, bodies };
}

/** A pool that answers nothing until released, counting what is in flight and its flushes. */
function stalledPool() {
  const waiting: Array<() => void> = [];
  const pool = {
    inFlight: 0,
    flushes: 0,
    encode: (body: Uint8Array) =>
      new Promise<{ etag: string; gzip: Buffer }>((resolve) => {
        pool.inFlight++;
        waiting.push(() => {
          pool.inFlight--;
          resolve({ etag: "x".repeat(22), gzip: Buffer.from(body) });
        });
      }),
    flush: () => void pool.flushes++,
    close: async () => {},
    release: () => {
      for (const answer of waiting.splice(0)) answer();
    },
  };
  return pool;
}

/** A pool answering out of order (later submissions may resolve first), counting what is in flight. */
function shufflingPool(): BodyPool & { peak: number } {
  let n = 0;
  let inFlight = 0;
  const pool = {
    peak: 0,
    encode: (body: Uint8Array) => {
      pool.peak = Math.max(pool.peak, ++inFlight);
      return new Promise<{ etag: string; gzip: Buffer }>((resolve) =>
        setTimeout(
          () => {
            inFlight--;
            resolve({ etag: "x".repeat(22), gzip: Buffer.from(body) });
          },
          (n++ * 7) % 5,
        ),
      );
    },
    flush: () => {},
    close: async () => {},
  };
  return pool;
}

/** True when `promise` settles before the event loop turns (a blocked add does not). */
const settlesNow = (promise: Promise<void>) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);

/**
 * Adds bodies to a writer on a pool that never answers, until an add blocks; the add, and how many bodies are then
 * in flight.
 */
async function fillUntilBlocked(writer: BodyWriter, pool: ReturnType<typeof stalledPool>) {
  for (let i = 0; i < 100_000; i++) {
    const add = writer.add(Buffer.from(`k${i}`), Buffer.from(`b${i}`));
    if (!(await settlesNow(add))) return { blocked: add, inFlight: pool.inFlight, added: i + 1 };
  }
  throw new Error("100,000 bodies in flight and add still resolves: nothing bounds the memory");
}

describe("BodyWriter", () => {
  test(
    "add stops resolving once a bounded number of bodies wait on the pool, flushing it first, and " +
      "resumes as it answers",
    async () => {
      const { written, bodies } = recordingBodies();
      const pool = stalledPool();
      const writer = new BodyWriter(bodies, pool);
      const { blocked, inFlight, added } = await fillUntilBlocked(writer, pool);
      // Every body added is in flight, nothing is written, and a batching pool was told to send what it holds.
      expect(inFlight).toBe(added);
      expect(written).toEqual([]);
      expect(pool.flushes).toBe(1);
      pool.release();
      expect(await settlesNow(blocked)).toBe(true);
      await writer.drain();
      expect(written).toEqual(Array.from({ length: added }, (_, i) => `k${i}=b${i}`));
    },
  );

  test(
    "whatever the number of bodies, all are written in submission order and no more are in flight than " + "the bound",
    async () => {
      const stalled = stalledPool();
      const { inFlight: bound } = await fillUntilBlocked(new BodyWriter(recordingBodies().bodies, stalled), stalled);
      stalled.release();
      for (const count of [10, bound - 1, bound, bound + 1, 5 * bound]) {
        const { written, bodies } = recordingBodies();
        const pool = shufflingPool();
        const writer = new BodyWriter(bodies, pool);
        for (let i = 0; i < count; i++) await writer.add(Buffer.from(`k${i}`), Buffer.from(`b${i}`));
        await writer.drain();
        expect(written, `${count} bodies`).toEqual(Array.from({ length: count }, (_, i) => `k${i}=b${i}`));
        expect(pool.peak, `${count} bodies`).toBeLessThanOrEqual(bound);
      }
    },
  );
});
