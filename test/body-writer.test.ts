/**
 * The body writer keeps bodies.blocks in submission order whatever order the pool finishes in
 * (so a snapshot is byte for byte reproducible), and holds at most a bounded number in flight.
 */
import { describe, expect, test } from "vitest";
import type { StoredBodyWriter } from "../api/_core/format/stored-bodies.js";
import type { BodyPool } from "../build/body-pool.js";
import { BodyWriter } from "../build/body-writer.js";

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

describe("BodyWriter", () => {
  test.each([[10], [1024], [5000]])(
    "%i bodies: written in submission order, at most 1,024 in flight",
    async (count) => {
      const written: string[] = [];
      const bodies = {
        add: (key: Buffer, body: { gzip: Buffer }) => written.push(`${key.toString()}=${body.gzip.toString()}`),
      } as unknown as StoredBodyWriter;
      const pool = shufflingPool();
      const writer = new BodyWriter(bodies, pool);
      for (let i = 0; i < count; i++) await writer.add(Buffer.from(`k${i}`), Buffer.from(`b${i}`));
      await writer.drain();
      expect(written).toEqual(Array.from({ length: count }, (_, i) => `k${i}=b${i}`));
      expect(pool.peak).toBeLessThanOrEqual(Math.min(count, 1024));
    },
  );
});
