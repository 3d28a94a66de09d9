/**
 * Random showtimes made from the shape table (format/layout/showtime-fields.ts): every field by its
 * type, each optional field present or not, so a row added to the table is in every record these
 * tests build without a change here. Used by the shape, worker-parity and extension tests.
 */
import fc from "fast-check";
import {
  type FieldShape,
  ID_LENGTH,
  PROVENANCE_FIELDS,
  SHOWTIME_FIELDS,
} from "../../api/_core/format/layout/showtime-fields.js";
import { formatInstant, type Dataset } from "./dataset.js";

export const CINEMAS = ["cinema-a", "cinema/b ★"];
export const FILMS = ["film-a", "film%b"];
export const ATTRIBUTES = ["attr-a", "attr,b", "attr-c"];

// The validator counts code points (spec §2 lengths count characters), a grapheme may hold several: cut to `max`.
export const textArb = (min: number, max: number) =>
  fc.oneof(
    fc
      .string({ unit: "grapheme", minLength: min, maxLength: Math.min(max, 12) })
      .map((text) => Array.from(text).slice(0, max).join("")),
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
      return fc.subarray(ATTRIBUTES, { maxLength: Math.min(field.max!, ATTRIBUTES.length) });
    case "text":
      return textArb(field.min!, field.max!);
    case "provenance":
      return recordArb(PROVENANCE_FIELDS);
  }
}

/** A record made from a shape table: every required field, each optional one present or not. */
export function recordArb(fields: readonly FieldShape[]): fc.Arbitrary<Record<string, unknown>> {
  const parts = fields.map((field) =>
    field.optional ? fc.option(valueArb(field), { nil: undefined, freq: 3 }) : valueArb(field),
  );
  return fc.tuple(...parts).map((values) => {
    const record: Record<string, unknown> = {};
    // Written in reverse: the canonical order is the table's, whatever order a feed writes.
    fields.forEach((field, i) => values[i] !== undefined && (record[field.name] = values[i]));
    return Object.fromEntries(Object.entries(record).reverse());
  });
}

/** Up to `maxLength` showtimes made from the table as it is loaded (a test may mock it), ids distinct. */
export function showtimesArb(maxLength = 30): fc.Arbitrary<Array<Record<string, unknown>>> {
  return fc.uniqueArray(recordArb(SHOWTIME_FIELDS), { minLength: 1, maxLength, selector: (r) => r.id as string });
}

/** A dataset of the given showtimes with the cinemas, films and attributes they refer to. */
export function datasetOf(showtimes: Array<Record<string, unknown>>): Dataset {
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
