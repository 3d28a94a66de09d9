/**
 * The showtime record's shape is defined once (format/layout/showtime-fields.ts): the validator is
 * derived from it, and records made from the table itself — every field by its type, each optional
 * field present or not — come back from the snapshot byte for byte as the validator's canonical
 * JSON, one by one and in lists. A field added to the table that the encoder, the decoder or the
 * renderer does not carry fails here; a table the record layout cannot hold fails when it loads.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fileAccess } from "../api/_core/gate/access.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import {
  type FieldShape,
  MAX_EXTENSION_FIELDS,
  PROVENANCE_FIELDS,
  SHOWTIME_FIELDS,
  valueFieldsOf,
} from "../api/_core/format/layout/showtime-fields.js";
import { createHandler } from "../api/_core/handle-request.js";
import { showtimeSchema } from "../build/validate/schemas.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, compareInstants } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import { datasetOf, showtimesArb, textArb } from "./helpers/showtime-records.js";

const extension = (name: string, more: Partial<FieldShape> = {}): FieldShape => ({
  name,
  type: "text",
  min: 1,
  max: 20,
  optional: true,
  stored: "extension",
  ...more,
});
const extensions = (count: number) => Array.from({ length: count }, (_, i) => extension(`late${i}`));
/** The rows the record layout gives a place: what any extension row comes after. */
const FIXED = (SHOWTIME_FIELDS as readonly FieldShape[]).filter((f) => f.stored !== "extension");

describe("a shape table the record layout can hold (decision: showtime fields added later)", () => {
  test.each([
    ["the product's table", SHOWTIME_FIELDS, PROVENANCE_FIELDS],
    ["one extension row after provenance", [...FIXED, extension("lateText")], PROVENANCE_FIELDS],
    [
      "extension rows of every value type",
      [
        ...FIXED,
        extension("lateId", { type: "id" }),
        extension("lateTime", { type: "dateTime" }),
        extension("lateUrl", { type: "url" }),
        extension("lateIds", { type: "idList" }),
      ],
      PROVENANCE_FIELDS,
    ],
    ["as many extension rows as a mask holds", [...FIXED, ...extensions(MAX_EXTENSION_FIELDS)], PROVENANCE_FIELDS],
  ])("%s loads", (_, fields, provenance) => {
    const names = valueFieldsOf(fields, provenance).map((v) => v.name);
    expect(names.slice(0, 4)).toEqual(["id", "filmId", "cinemaId", "startsAt"]);
    expect(names).toContain("observedAt");
  });

  test.each([
    [
      "an extension row before provenance",
      [...FIXED.slice(0, -1), extension("lateText"), FIXED.at(-1)!],
      PROVENANCE_FIELDS,
      /comes after an extension row/,
    ],
    [
      "a required extension row",
      [...FIXED, extension("lateText", { optional: false })],
      PROVENANCE_FIELDS,
      /is optional/,
    ],
    [
      "one extension row past what a mask holds",
      [...FIXED, ...extensions(MAX_EXTENSION_FIELDS + 1)],
      PROVENANCE_FIELDS,
      /mask holds/,
    ],
    [
      "an extension row holding an object",
      [...FIXED, extension("lateObject", { type: "provenance" })],
      PROVENANCE_FIELDS,
      /provenance, and only it/,
    ],
    [
      "an extension row in provenance",
      FIXED,
      [...PROVENANCE_FIELDS, extension("lateText")],
      /provenance fields are stored/,
    ],
    ["a name used twice, provenance flattened", [...FIXED, extension("provider")], PROVENANCE_FIELDS, /named twice/],
  ])("%s is refused", (_, fields, provenance, message) => {
    expect(() => valueFieldsOf(fields as readonly FieldShape[], provenance)).toThrow(message);
  });
});

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

  test.each([
    [1, 1],
    [2, 8],
    [1, 120],
  ])("random text for a %i..%i field is within its bounds as the validator counts (code points)", (min, max) => {
    fc.assert(
      fc.property(textArb(min, max), (text) => {
        const length = Array.from(text).length;
        expect(length).toBeGreaterThanOrEqual(min);
        expect(length).toBeLessThanOrEqual(max);
      }),
    );
  });

  test("comes back from the snapshot as the validator's canonical JSON, alone and in its list", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(showtimesArb(), async (showtimes) => {
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
