/** The build's record arena: every record reads back byte for byte, across chunk boundaries. */
import { describe, expect, test } from "vitest";
import { RecordArena } from "../build/record-arena.js";

describe("record arena", () => {
  test("round-trips records of any size and script, across 16 MB chunk boundaries", () => {
    const arena = new RecordArena();
    const samples = ['{"id":"a"}', '{"name":"Le Grand Rex ★ — 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"}', `{"big":"${"x".repeat(39_990)}"}`];
    const stored: Array<[number, string]> = [];
    // 3 × ~450 records of ~40 kB pass 16 MB more than once.
    for (let i = 0; i < 1_400; i++) {
      const json = samples[i % samples.length]!.replace("}", `,"n":${i}}`);
      stored.push([arena.add(json), json]);
    }
    for (const [handle, json] of stored) expect(arena.bytes(handle).toString("utf8")).toBe(json);
    expect(Math.max(...stored.map(([h]) => h))).toBeGreaterThan(16 * 2 ** 20);
  });

  test("refuses a record larger than a chunk instead of corrupting its neighbours", () => {
    expect(() => new RecordArena().add("x".repeat(16 * 2 ** 20))).toThrow(/does not fit/);
  });
});
