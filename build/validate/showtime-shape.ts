/**
 * What the build derives from the showtime's shape tables (format/layout/showtime-fields.ts): the
 * validator, the values a checked showtime yields in response order, how each travels from a
 * validation worker (validate-protocol.ts) and how each is held in a build entry (entries.ts). A
 * validation worker is sent the tables its parent holds and derives the same shape from them, so
 * both ends of the wire format are made from one table, whatever the worker's bundle holds.
 */
import type { z } from "zod";
import {
  type FieldShape,
  PROVENANCE_FIELDS,
  SHOWTIME_FIELDS,
  type ValueField,
  valueFieldsOf,
} from "../../api/_core/format/layout/showtime-fields.js";
import type { Location } from "../load/read-source-file.js";
import { type Showtime, showtimeSchema, showtimeSchemaOf } from "./schemas.js";

/**
 * How a value is held, by its row's type and storage. "own": it differs from record to record (ids,
 * URLs, externalIds): the record's own string, never interned. The others repeat (date-times,
 * attribute lists, cinema and film ids, screens, providers, extension values): one shared copy
 * each, and from a worker, a row of its tables ("list": a row of rows).
 */
export type ValueKind = "own" | "time" | "list" | "shared";

export interface ShowtimeValue extends ValueField {
  readonly kind: ValueKind;
}

/** The tables a shape is made from, as a validation worker is sent them. */
export interface ShowtimeTables {
  fields: readonly FieldShape[];
  provenance: readonly FieldShape[];
}

export interface ShowtimeShape {
  tables: ShowtimeTables;
  schema: z.ZodType;
  /** Every value, in response order. */
  values: readonly ShowtimeValue[];
  /** On the wire: the record's own strings, then rows of the worker's tables, each in `values` order. */
  own: readonly ShowtimeValue[];
  rows: readonly ShowtimeValue[];
  /** An entry with every value and its location unset (entries.ts): what each entry is copied from. */
  template: Readonly<Record<string, unknown>>;
}

function kindOf(field: FieldShape): ValueKind {
  if (field.stored === "string") return "own";
  if (field.type === "dateTime") return "time";
  if (field.type === "idList") return "list";
  return "shared";
}

/** The location members every entry ends with (read-source-file.ts Location). */
const LOCATION: ReadonlyArray<keyof Location> = ["file", "line", "index"];

/**
 * An object with these members, all undefined, laid out inside the object: JSON.parse sizes an
 * object for its members, and a spread of it copies that layout, where members added one by one
 * to `{}` would spill into a second allocation per entry (2M entries: 32 bytes each, and slower).
 */
function templateOf(names: readonly string[]): Record<string, unknown> {
  const template = JSON.parse(JSON.stringify(Object.fromEntries(names.map((name) => [name, null]))));
  for (const name of names) template[name] = undefined;
  return template;
}

export function showtimeShapeOf(tables: ShowtimeTables, schema?: z.ZodType): ShowtimeShape {
  const values = valueFieldsOf(tables.fields, tables.provenance).map((field) => ({ ...field, kind: kindOf(field) }));
  return {
    tables,
    schema: schema ?? showtimeSchemaOf(tables.fields, tables.provenance),
    values,
    own: values.filter((v) => v.kind === "own"),
    rows: values.filter((v) => v.kind !== "own"),
    template: templateOf([...values.map((v) => v.name), ...LOCATION]),
  };
}

/** The shape of the tables this build holds. */
export const SHOWTIME_SHAPE = showtimeShapeOf(
  { fields: SHOWTIME_FIELDS, provenance: PROVENANCE_FIELDS },
  showtimeSchema,
);

/** A value of a validated showtime, where its row puts it (provenance's inside that object). */
export function valueIn(showtime: Showtime, value: ValueField): unknown {
  const holder = (value.inProvenance ? showtime.provenance : showtime) as Record<string, unknown>;
  return holder[value.name];
}
