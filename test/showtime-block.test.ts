/**
 * The showtime block codec (architecture: "Showtime records: blocks clustered by cinema"): any rows encoded into a
 * block decode
 * back to the same codes, strings and extension values, read in order or reached by a seek to any
 * record, at every restart interval; and bytes that are not a block (or a block with bytes changed,
 * or extension data that cannot be) either decode or fail with a DecodeError — never another
 * exception, which would reach a client as a 500.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ByteWriter, DecodeError } from "../api/_core/format/primitives/bytes.js";
import { type FieldShape, MAX_RECORD_BYTES } from "../api/_core/format/layout/showtime-fields.js";
import {
  EXTENDED,
  HAS_URL,
  MAX_STRING_BYTES,
  RESERVED,
  type ShowtimeRow,
} from "../api/_core/format/layout/showtime-record.js";
import { ShowtimeBlock, ShowtimeDecoder, type ShowtimeFragments } from "../api/_core/format/read/showtime-block.js";
import { encodeShowtimeBlock } from "../build/encode/encode-showtime-block.js";

/** Rendering is not under test here (the paging property test covers it): decoding needs no fragments. */
const NO_FRAGMENTS = {} as ShowtimeFragments;
const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));
/** Extension rows a decoder is given here (the product table has none yet): bit i is the i-th. */
const EXTENSIONS: readonly FieldShape[] = ["a", "b", "c"].map((name) => ({
  name,
  type: "text",
  optional: true,
  stored: "extension",
}));

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
  // Canonical JSON texts, by extension bit; absent bits unset.
  extensions: fc.array(
    fc.option(
      textArb.map((t) => utf8(JSON.stringify(t))),
      { nil: undefined },
    ),
    { maxLength: EXTENSIONS.length },
  ),
});
const blockArb = fc.record({
  rows: fc.array(rowArb, { minLength: 1, maxLength: 40 }),
  restartInterval: fc.integer({ min: 1, max: 9 }),
});

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

/** The decoder's current record, with fields its flags say are absent left out. */
function decoded(d: ShowtimeDecoder) {
  const extensions = EXTENSIONS.map((_, i) => (d.flags & EXTENDED ? d.extension(i) : undefined));
  while (extensions.length > 0 && extensions.at(-1) === undefined) extensions.pop();
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
    extensions: extensions.map((value) => value && text(value)),
  };
}

function expected(row: ShowtimeRow) {
  const extensions = row.extensions.map((value) => value && text(value));
  while (extensions.length > 0 && extensions.at(-1) === undefined) extensions.pop();
  return { ...row, id: text(row.id), url: text(row.url), externalId: text(row.externalId), extensions };
}

describe("a showtime block", () => {
  test("decodes every row it was encoded from, in order and after a seek to any record", () => {
    fc.assert(
      fc.property(blockArb, fc.nat(), ({ rows, restartInterval }, seekSeed) => {
        const block = new ShowtimeBlock(encodeShowtimeBlock(rows, restartInterval));
        expect(block.count).toBe(rows.length);
        const decoder = new ShowtimeDecoder(NO_FRAGMENTS, EXTENSIONS);
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
        extensions: [],
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
      extensions: [],
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
  const decoder = new ShowtimeDecoder(NO_FRAGMENTS, EXTENSIONS);
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

describe("extension fields", () => {
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
    extensions: [],
  };

  /**
   * The block's only record with its flags byte or-ed with `bits` and `tail` after it: the record
   * is the block's last, so the tail is where its extension mask and values are read.
   */
  function withTail(bits: number, tail: Uint8Array): Uint8Array {
    const block = encodeShowtimeBlock([row], 1);
    const flagsAt = new ShowtimeBlock(block).restart(0);
    const out = Buffer.from(block);
    out[flagsAt] = out[flagsAt]! | bits;
    return Buffer.concat([out, tail]);
  }

  /** A mask, then each value as a length and that many bytes (`"…"`, so a whole value is JSON text). */
  function tail(mask: number, ...lengths: number[]): Uint8Array {
    const out = new ByteWriter();
    out.varint(mask);
    for (const length of lengths) {
      out.varint(length);
      out.raw(utf8(length >= 2 ? `"${"x".repeat(length - 2)}"` : "1".repeat(length)));
    }
    return out.finish();
  }

  function decodeOnly(payload: Uint8Array): ShowtimeDecoder {
    const decoder = new ShowtimeDecoder(NO_FRAGMENTS, EXTENSIONS);
    decoder.seek(new ShowtimeBlock(payload), 0);
    decoder.next();
    return decoder;
  }

  test("a record without extensions reads as it always did, by a decoder that knows none or some", () => {
    const payload = encodeShowtimeBlock([row], 1);
    for (const extensions of [[], EXTENSIONS]) {
      const decoder = new ShowtimeDecoder(NO_FRAGMENTS, extensions);
      decoder.seek(new ShowtimeBlock(payload), 0);
      decoder.next();
      expect(decoder.flags & EXTENDED).toBe(0);
      expect(decoded(decoder)).toEqual(expected(row));
    }
  });

  const half = MAX_RECORD_BYTES / 2;
  test.each([
    ["one value at the bound of a record", 0b1, [MAX_RECORD_BYTES]],
    ["two values that fill a record together", 0b101, [half, half]],
    ["a one-byte value", 0b10, [1]],
  ])("%s decodes", (_, mask, lengths) => {
    const decoder = decodeOnly(withTail(EXTENDED, tail(mask, ...lengths)));
    const present = EXTENSIONS.map((_, i) => decoder.extension(i)?.length).filter((n) => n !== undefined);
    expect(present).toEqual(lengths);
  });

  test.each([
    ["a mask naming no field", tail(0)],
    ["a bit past the fields this reader knows", tail(0b1000, 3)],
    ["a bit far past them", tail(2 ** 40, 3)],
    ["a mask that never ends", new Uint8Array(10).fill(0xff)],
    ["no mask at all", new Uint8Array(0)],
    ["a length past the block", tail(0b1, 5).subarray(0, 4)],
    ["a second value past the block", tail(0b11, 3, 4).subarray(0, 8)],
    ["an empty value", tail(0b1, 0)],
    ["one value a byte past a record", tail(0b1, MAX_RECORD_BYTES + 1)],
    ["values a byte past a record together", tail(0b11, half, half + 1)],
  ])("%s is a DecodeError (a snapshot this server cannot read, never a wrong record)", (_, extension) => {
    expect(() => decodeOnly(withTail(EXTENDED, extension))).toThrow(DecodeError);
  });

  test("the reserved bit is a DecodeError", () => {
    expect(() => decodeOnly(withTail(RESERVED, new Uint8Array(0)))).toThrow(DecodeError);
  });

  test.each([
    ["at the bound", MAX_RECORD_BYTES, "is"],
    ["one byte past it", MAX_RECORD_BYTES + 1, "is not"],
  ])("an extension value %s (%i bytes) %s encodable", (_label, length, verdict) => {
    const value = utf8(`"${"x".repeat(length - 2)}"`);
    const rows = [{ ...row, extensions: [undefined, value] }];
    if (verdict === "is not") {
      expect(() => encodeShowtimeBlock(rows, 4)).toThrow(/too long/);
      return;
    }
    expect(decodeOnly(encodeShowtimeBlock(rows, 4)).extension(1)).toEqual(value);
  });
});
