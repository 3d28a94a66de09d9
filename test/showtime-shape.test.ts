/**
 * The showtime record's shape is defined once (format/layout/showtime-fields.ts): the validator is
 * derived from it, and records made from the table itself — every field by its type, each optional
 * field present or not — come back from the snapshot byte for byte as the validator's canonical
 * JSON, one by one and in lists. A field added to the table that the encoder, the decoder or the
 * renderer does not carry fails here.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fileAccess } from "../api/_core/access.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import {
  type FieldShape,
  ID_LENGTH,
  PROVENANCE_FIELDS,
  SHOWTIME_FIELDS,
} from "../api/_core/format/layout/showtime-fields.js";
import { createHandler } from "../api/_core/handle-request.js";
import { showtimeSchema } from "../build/schemas.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, compareInstants, formatInstant, type Dataset } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

const CINEMAS = ["cinema-a", "cinema/b ★"];
const FILMS = ["film-a", "film%b"];
const ATTRIBUTES = ["attr-a", "attr,b", "attr-c"];

const textArb = (min: number, max: number) =>
  fc.oneof(
    fc.string({ unit: "grapheme", minLength: min, maxLength: Math.min(max, 12) }),
    fc.constant("x".repeat(max)),
    fc.constant("é".repeat(min)),
  );
const dateTimeArb = fc
  .record({
    seconds: fc.integer({ min: 1_790_000_000, max: 1_790_900_000 }),
    fraction: fc.constantFrom("", "5", "250", "123456789"),
    offset: fc.constantFrom(0, 60, -300, 330, 845, -720),
  })
  .map(({ seconds, fraction, offset }) => formatInstant(seconds, fraction, offset));

/** A value of a field, by its type (a type the switch does not know fails tsc). */
function valueArb(field: FieldShape): fc.Arbitrary<unknown> {
  switch (field.type) {
    case "id":
      if (field.stored === "cluster") return fc.constantFrom(...CINEMAS);
      if (field.stored === "other") return fc.constantFrom(...FILMS);
      return textArb(ID_LENGTH.min, ID_LENGTH.max);
    case "dateTime":
      return dateTimeArb;
    case "url":
      return fc.webPath().map((p) => `https://tickets.example.com/${encodeURI(p)}`.slice(0, 300));
    case "idList":
      return fc.subarray(ATTRIBUTES);
    case "text":
      return textArb(field.min!, field.max!);
    case "provenance":
      return recordArb(PROVENANCE_FIELDS);
  }
}

/** A record made from a shape table: every required field, each optional one present or not. */
function recordArb(fields: readonly FieldShape[]): fc.Arbitrary<Record<string, unknown>> {
  const parts = fields.map((field) =>
    field.optional ? fc.option(valueArb(field), { nil: undefined }) : valueArb(field),
  );
  return fc.tuple(...parts).map((values) => {
    const record: Record<string, unknown> = {};
    // Written in reverse: the canonical order is the table's, whatever order a feed writes.
    fields.forEach((field, i) => values[i] !== undefined && (record[field.name] = values[i]));
    return Object.fromEntries(Object.entries(record).reverse());
  });
}

const datasetArb = fc.uniqueArray(recordArb(SHOWTIME_FIELDS), {
  minLength: 1,
  maxLength: 30,
  selector: (r) => r.id as string,
});

function datasetOf(showtimes: Array<Record<string, unknown>>): Dataset {
  const provenance = { observedAt: "2026-11-20T06:00:00Z", provider: "p", externalId: "x" };
  return {
    cinemas: CINEMAS.map((id) => ({
      id,
      name: id,
      location: { countryCode: "GB", locality: "London", postcode: "W1 1AA" },
      provenance,
    })),
    films: FILMS.map((id) => ({ id, title: id, provenance })),
    attributes: ATTRIBUTES.map((id) => ({ id, kind: "format" as const, name: id })),
    showtimes: showtimes as unknown as Dataset["showtimes"],
  };
}

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("shape");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

describe("a showtime made from its shape table", () => {
  test("the validator takes exactly the table's fields, in its order", () => {
    expect(Object.keys(showtimeSchema.shape)).toEqual(SHOWTIME_FIELDS.map((f) => f.name));
    expect(Object.keys(showtimeSchema.shape.provenance.shape)).toEqual(PROVENANCE_FIELDS.map((f) => f.name));
    const shapes: Array<[readonly FieldShape[], Record<string, { safeParse(v: unknown): { success: boolean } }>]> = [
      [SHOWTIME_FIELDS, showtimeSchema.shape],
      [PROVENANCE_FIELDS, showtimeSchema.shape.provenance.shape],
    ];
    for (const [fields, shape] of shapes)
      for (const field of fields)
        expect(shape[field.name]!.safeParse(undefined).success, field.name).toBe(field.optional);
  });

  test("comes back from the snapshot as the validator's canonical JSON, alone and in its list", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(datasetArb, async (showtimes) => {
        const dir = `${root}/run-${run++}`;
        const snapshot = `${dir}/snapshot`;
        await buildDataset(datasetOf(showtimes), dir, snapshot, "data", {
          targetBytes: 200,
          restartInterval: 3,
          deflate: true,
        });
        const handle = createHandler({
          snapshots: new SnapshotSource(snapshot),
          access: fileAccess(accessFile),
          now: () => TEST_NOW,
        });
        const get = async (url: string) => {
          const response = await handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}` } });
          expect(response.status, url).toBe(200);
          return Buffer.from(response.body).toString();
        };
        const canonical = showtimes.map((s) => JSON.stringify(showtimeSchema.parse(s)));
        for (const [i, showtime] of showtimes.entries()) {
          const body = await get(`/v1/showtimes/${encodeURIComponent(showtime.id as string)}`);
          expect(body.slice('{"data":'.length, body.indexOf(',"freshness":'))).toBe(canonical[i]);
        }
        const listed = JSON.parse(await get("/v1/showtimes?limit=100")).data.map((s: unknown) => JSON.stringify(s));
        const id = (r: Record<string, unknown>) => r.id as string;
        const order = showtimes
          .map((s, i) => ({ s, json: canonical[i]! }))
          .sort(
            (a, b) =>
              compareInstants(a.s.startsAt as string, b.s.startsAt as string) ||
              (id(a.s) < id(b.s) ? -1 : id(a.s) > id(b.s) ? 1 : 0),
          );
        expect(listed).toEqual(order.map((o) => o.json));
      }),
      { numRuns: 12 },
    );
  });
});
