/**
 * The body writer keeps the pack in submission order whatever the pool does, and gives the main
 * thread's other work (the record packs) a slice each time it waits for the pool.
 */
import { describe, expect, test } from "vitest";
import type { BodyPool } from "../build/body-pool.js";
import { BodyWriter } from "../build/body-writer.js";
import type { KeyedPackWriter } from "../build/keyed-pack-writer.js";

/** A pool answering out of order: later submissions may resolve first. */
function shufflingPool(): BodyPool {
  let n = 0;
  return {
    encode: (parts) => new Promise((resolve) => setTimeout(() => resolve(Buffer.from(String(parts[0]))), (n++ * 7) % 5)),
    flush: () => {},
    close: async () => {},
  };
}

describe("BodyWriter", () => {
  test.each([[10], [1024], [5000]])("%i bodies: written in submission order; other work sliced in only while the queue is full", async (count) => {
    const written: string[] = [];
    const pack = { add: (key: Buffer, file: Buffer) => written.push(`${key.toString()}=${file.toString()}`) } as unknown as KeyedPackWriter;
    let slices = 0;
    const writer = new BodyWriter(pack, shufflingPool(), undefined, () => (slices++, true));
    for (let i = 0; i < count; i++) await writer.add(Buffer.from(`k${i}`), [`b${i}`]);
    await writer.drain();
    expect(written).toEqual(Array.from({ length: count }, (_, i) => `k${i}=b${i}`));
    // The queue holds 1,024 bodies: below that nothing waits, beyond it every wait runs a slice.
    if (count < 1024) expect(slices).toBe(0);
    else expect(slices).toBeGreaterThanOrEqual(Math.floor((count - 1024) / 513) + 1);
  });
});
