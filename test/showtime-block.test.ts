/**
 * The showtime block codec (architecture: "Showtime records: blocks clustered by cinema"): any rows encoded into a block decode
 * back to the same codes and strings, read in order or reached by a seek to any record, at every
 * restart interval; and bytes that are not a block (or a block with bytes changed) either decode
 * or fail with a DecodeError — never another exception, which would reach a client as a 500.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DecodeError } from "../api/_core/format/primitives/bytes.js";
import {
  EXTENDED,
  HAS_URL,
  MAX_STRING_BYTES,
  RESERVED,
  type ShowtimeRow,
} from "../api/_core/format/layout/showtime-record.js";
import { ShowtimeBlock, ShowtimeDecoder, type ShowtimeFragments } from "../api/_core/format/read/showtime-block.js";
import { encodeShowtimeBlock } from "../api/_core/format/write/encode-showtime-block.js";

/** Rendering is not under test here (the paging property test covers it): decoding needs no fragments. */
const NO_FRAGMENTS = {} as ShowtimeFragments;
const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

// Few distinct characters, so neighbouring strings share prefixes of every length.
const textArb = fc.string({ unit: fc.constantFrom("a", "b", "/", "%", "é", "🎬", '\\"', "\\u0000"), maxLength: 12 });
const rowArb: fc.Arbitrary<ShowtimeRow> = fc.record({
  startsAt: fc.integer({ min: 0, max: 2_000_000 }),
  other: fc.integer({ min: 0, max: 3 }),
  attributes: fc.integer({ min: 0, max: 3 }),
  screen: fc.integer({ min: -1, max: 2 }),
  observed: fc.integer({ min: 0, max: 2 }),
  provider: fc.integer({ min: 0, max: 1 }),
  updated: fc.integer({ min: -1, max: 2 }),
  id: textArb.map((t) => utf8(`st-${t}`)),
  url: fc
    .oneof(
      fc.constant(""),
      textArb.map((t) => `https://x.example/${t}`),
    )
    .map(utf8),
  externalId: textArb.map(utf8),
});
const blockArb = fc.record({
  rows: fc.array(rowArb, { minLength: 1, maxLength: 40 }),
  restartInterval: fc.integer({ min: 1, max: 9 }),
});

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

/** The decoder's current record, with fields its flags say are absent left out. */
function decoded(d: ShowtimeDecoder) {
  return {
    startsAt: d.startsAt,
    other: d.other,
    attributes: d.attributes,
    observed: d.observed,
    provider: d.provider,
    screen: d.screen,
    updated: d.updated,
    id: text(d.idBytes()),
    url: d.flags & HAS_URL ? text(d.url.bytes.subarray(0, d.urlLength)) : "",
    externalId: text(d.ext.bytes.subarray(0, d.extLength)),
  };
}

function expected(row: ShowtimeRow) {
  return { ...row, id: text(row.id), url: text(row.url), externalId: text(row.externalId) };
}

describe("a showtime block", () => {
  test("decodes every row it was encoded from, in order and after a seek to any record", () => {
    fc.assert(
      fc.property(blockArb, fc.nat(), ({ rows, restartInterval }, seekSeed) => {
        const block = new ShowtimeBlock(encodeShowtimeBlock(rows, restartInterval));
        expect(block.count).toBe(rows.length);
        const decoder = new ShowtimeDecoder(NO_FRAGMENTS);
        decoder.seek(block, 0);
        for (const row of rows) {
          decoder.next();
          expect(decoded(decoder)).toEqual(expected(row));
        }
        const k = seekSeed % rows.length;
        decoder.seek(block, k);
        decoder.next();
        expect(decoded(decoder)).toEqual(expected(rows[k]!));
        // What a time search reads without decoding: each restart's start time, and the attribute sets present.
        for (let r = 0; r * restartInterval < rows.length; r++)
          expect(block.restartStartsAt(r)).toBe(rows[r * restartInterval]!.startsAt);
        expect(block.attributeSets()).toEqual([...new Set(rows.map((row) => row.attributes))].sort((a, b) => a - b));
      }),
      { numRuns: 300, seed: 20_261_123 },
    );
  });

  test.each([
    ["one record", 1, 1],
    ["a restart at every record", 5, 1],
    ["a record count that is a multiple of the restart interval", 8, 4],
    ["one record past a multiple", 9, 4],
  ])("%s: every seek lands on its record (%i records, restart interval %i)", (_label, count, restartInterval) => {
    const rows = Array.from(
      { length: count },
      (_, i): ShowtimeRow => ({
        startsAt: 1000 - i * 7,
        other: i % 2,
        attributes: 0,
        screen: -1,
        observed: 0,
        provider: 0,
        updated: -1,
        id: utf8(`st-${i}`),
        url: new Uint8Array(0),
        externalId: utf8(`e${i}`),
      }),
    );
    const block = new ShowtimeBlock(encodeShowtimeBlock(rows, restartInterval));
    const decoder = new ShowtimeDecoder(NO_FRAGMENTS);
    for (let k = 0; k < count; k++) {
      decoder.seek(block, k);
      decoder.next();
      expect(decoded(decoder)).toEqual(expected(rows[k]!));
    }
    expect(() => decoder.seek(block, count)).toThrow(DecodeError);
    expect(() => decoder.seek(block, -1)).toThrow(DecodeError);
  });

  test.each([
    ["at the bound", MAX_STRING_BYTES, "is"],
    ["one byte past it", MAX_STRING_BYTES + 1, "is not"],
  ])("a string %s (%i bytes) %s encodable", (_label, length, verdict) => {
    const encodes = verdict === "is";
    const row: ShowtimeRow = {
      startsAt: 0,
      other: 0,
      attributes: 0,
      screen: -1,
      observed: 0,
      provider: 0,
      updated: -1,
      id: new Uint8Array(length).fill(97),
      url: new Uint8Array(0),
      externalId: utf8("e"),
    };
    if (!encodes) {
      expect(() => encodeShowtimeBlock([row], 4)).toThrow(/too long/);
      return;
    }
    const decoder = new ShowtimeDecoder(NO_FRAGMENTS);
    decoder.seek(new ShowtimeBlock(encodeShowtimeBlock([row], 4)), 0);
    decoder.next();
    expect(decoder.idLength).toBe(length);
  });
});

/** Constructs and walks a block from `payload`: every record, then a seek to each. */
function walk(payload: Uint8Array): void {
  const block = new ShowtimeBlock(payload);
  const decoder = new ShowtimeDecoder(NO_FRAGMENTS);
  decoder.seek(block, 0);
  for (let i = 0; i < block.count; i++) decoder.next();
  for (let r = 0; r * block.restartInterval < block.count; r++) block.restartStartsAt(r);
  block.attributeSets();
}

function onlyDecodeErrors(payload: Uint8Array): void {
  try {
    walk(payload);
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(DecodeError);
  }
}

describe("bytes that are not a block", () => {
  test("a block with bytes changed, cut short or extended decodes or throws DecodeError, nothing else", () => {
    fc.assert(
      fc.property(
        blockArb,
        fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: -8, max: 8 }),
        ({ rows, restartInterval }, changes, resize) => {
          const valid = encodeShowtimeBlock(rows, restartInterval);
          const payload = new Uint8Array(Math.max(0, valid.length + resize));
          payload.set(valid.subarray(0, payload.length));
          for (const { at, value } of changes) if (payload.length) payload[at % payload.length] = value;
          onlyDecodeErrors(payload);
        },
      ),
      { numRuns: 2000, seed: 20_261_123 },
    );
  });

  test("random bytes decode or throw DecodeError, nothing else", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (payload) => onlyDecodeErrors(payload)),
      { numRuns: 2000, seed: 7 },
    );
  });
});

describe("room for more fields", () => {
  const row: ShowtimeRow = {
    startsAt: 5,
    other: 0,
    attributes: 0,
    screen: -1,
    observed: 0,
    provider: 0,
    updated: -1,
    id: utf8("st-1"),
    url: new Uint8Array(0),
    externalId: utf8("e1"),
  };

  /** The block's only record with its flags byte or-ed with `bits` and, when given, an extension mask after it. */
  function withFlags(bits: number, mask?: number): Uint8Array {
    const block = encodeShowtimeBlock([row], 1);
    const flagsAt = new ShowtimeBlock(block).restart(0);
    const out = Buffer.from(block);
    out[flagsAt] = out[flagsAt]! | bits;
    return mask === undefined ? out : Buffer.concat([out, Buffer.from([mask])]);
  }

  test("a record without extensions reads as it always did", () => {
    const decoder = new ShowtimeDecoder(NO_FRAGMENTS);
    decoder.seek(new ShowtimeBlock(encodeShowtimeBlock([row], 1)), 0);
    decoder.next();
    expect(decoded(decoder)).toEqual(expected(row));
  });

  test.each([
    ["an extension field this reader does not know", EXTENDED, 1],
    ["the reserved bit", RESERVED, undefined],
  ])("%s is a DecodeError (a snapshot this server cannot read, never a wrong record)", (_, bits, mask) => {
    const decoder = new ShowtimeDecoder(NO_FRAGMENTS);
    decoder.seek(new ShowtimeBlock(withFlags(bits, mask)), 0);
    expect(() => decoder.next()).toThrow(DecodeError);
  });
});
