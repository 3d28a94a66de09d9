/**
 * The showtime record's shape, defined once (spec §2.2, §2.1): its fields in the order every
 * response writes them, whether each is optional, its bounds, and how the snapshot stores it.
 * Everything else is derived from these two tables: the build's validator (build/validate/schemas.ts), the
 * values a checked showtime yields, how they travel from validation workers and are held in the
 * build (build/validate/showtime-shape.ts), the `ShowtimeRecord` type (layout/content.ts), the extension
 * fields' bits (layout/showtime-record.ts) and the renderer's literal texts (read/showtime-texts.ts).
 * A property test renders random records made from the table and compares them with the
 * validator's canonical JSON (test/showtime-shape.test.ts), so a field the encoder or the renderer
 * forgets fails there.
 */

/** How a field's value is kept in a record block (layout/showtime-record.ts). */
export type Stored =
  | "string" // coded against the previous record's value
  | "cluster" // the cinema whose cluster holds the record
  | "other" // a code per record: the film (in a cinema's cluster)
  | "dictionary" // a code into a dictionary of the snapshot's distinct values
  | "object" // an object whose fields are listed apart
  | "extension"; // its canonical JSON, after the record's other fields, only in records that have it

export interface FieldShape {
  readonly name: string;
  readonly type: "id" | "dateTime" | "url" | "idList" | "text" | "provenance";
  readonly optional: boolean;
  /** Length bounds in code points (text), or the most items (idList). */
  readonly min?: number;
  readonly max?: number;
  readonly stored: Stored;
}

/** URLs are at most 2,048 characters (decision: validation of source data): what browsers and proxies take. */
export const MAX_URL_LENGTH = 2048;

/** 100 records of this size stay well under Vercel's 4.5 MB response limit (decision: record size). */
export const MAX_RECORD_BYTES = 40_000;

/**
 * Extension rows a record can carry: bits of a mask that stays a small integer (decision: showtime fields added
 * later).
 */
export const MAX_EXTENSION_FIELDS = 30;

/** The provenance object of a showtime (spec §2.1). */
export const PROVENANCE_FIELDS = [
  { name: "observedAt", type: "dateTime", optional: false, stored: "dictionary" },
  { name: "sourceUpdatedAt", type: "dateTime", optional: true, stored: "dictionary" },
  { name: "provider", type: "text", min: 1, max: 80, optional: false, stored: "dictionary" },
  { name: "externalId", type: "text", min: 1, max: 240, optional: false, stored: "string" },
] as const satisfies readonly FieldShape[];

/**
 * A showtime (spec §2.2), in response order. A field added from now on is one optional row with
 * `stored: "extension"` after every other row (decision: showtime fields added later): its bit in
 * a record's extension mask is its place among the extension rows, so rows are only ever added at
 * the end, never removed or reordered (snapshots already written would read another field's value).
 */
export const SHOWTIME_FIELDS = [
  { name: "id", type: "id", optional: false, stored: "string" },
  { name: "filmId", type: "id", optional: false, stored: "other" },
  { name: "cinemaId", type: "id", optional: false, stored: "cluster" },
  { name: "startsAt", type: "dateTime", optional: false, stored: "dictionary" },
  { name: "bookingUrl", type: "url", max: MAX_URL_LENGTH, optional: true, stored: "string" },
  { name: "attributeIds", type: "idList", max: 32, optional: false, stored: "dictionary" },
  { name: "screenName", type: "text", min: 1, max: 120, optional: true, stored: "dictionary" },
  { name: "provenance", type: "provenance", optional: false, stored: "object" },
] as const satisfies readonly FieldShape[];

/**
 * The field a showtime is served with beyond its shape table (decision: showtime ends): its start
 * plus its film's running time, written right after `startsAt` when the film has one. Derived
 * when a record is rendered, never stored nor read from the source (a source record giving it is
 * refused as an unknown field).
 */
export const ENDS_AT = { name: "endsAt", after: "startsAt" } as const;

/** Ids are 1..160 code points (spec §2). */
export const ID_LENGTH = { min: 1, max: 160 } as const;

/** The JSON text that opens a member: `"name":`. */
export function memberKey(name: string): string {
  return `${JSON.stringify(name)}:`;
}

/** A showtime's value as the build holds it: a row of either table, provenance's flattened in. */
export interface ValueField extends FieldShape {
  /** A field of the provenance object (the validated record holds it there). */
  readonly inProvenance: boolean;
}

/**
 * A showtime's values in response order, the provenance object's fields in its place (names are
 * flat: `observedAt`, not `provenance.observedAt`). Throws on a table the layout cannot hold:
 * an extension row before another kind, a required one, more than MAX_EXTENSION_FIELDS of them,
 * an object other than provenance, a name used twice.
 */
export function valueFieldsOf(fields: readonly FieldShape[], provenance: readonly FieldShape[]): ValueField[] {
  const values = fields.flatMap((field): ValueField[] => {
    if ((field.stored === "object") !== (field.type === "provenance"))
      throw new Error(`showtime field ${field.name}: provenance, and only it, is stored as an object`);
    if (field.stored !== "object") return [{ ...field, inProvenance: false }];
    return provenance.map((inner) => ({ ...inner, inProvenance: true }));
  });
  const names = values.map((v) => v.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`showtime field ${twice} is named twice`);
  if (provenance.some((f) => f.stored === "extension" || f.stored === "object"))
    throw new Error("provenance fields are stored in the record's layout: none is an extension or an object");
  const firstExtension = fields.findIndex((f) => f.stored === "extension");
  const extensions = firstExtension < 0 ? [] : fields.slice(firstExtension);
  for (const field of extensions) {
    if (field.stored !== "extension")
      throw new Error(`showtime field ${field.name} comes after an extension row: extension rows come last`);
    if (!field.optional) throw new Error(`showtime field ${field.name}: an extension row is optional`);
  }
  if (extensions.length > MAX_EXTENSION_FIELDS)
    throw new Error(`${extensions.length} extension rows: a record's mask holds ${MAX_EXTENSION_FIELDS}`);
  return values;
}

// Checked when the module loads: a table the layout cannot hold never builds or serves anything.
valueFieldsOf(SHOWTIME_FIELDS, PROVENANCE_FIELDS);

/** The types a showtime's values take, by field type: dateTime, idList, and every other. */
export interface ValueTypes {
  dateTime: unknown;
  idList: unknown;
  other: unknown;
}

type FlatRow =
  | Exclude<(typeof SHOWTIME_FIELDS)[number], { readonly type: "provenance" }>
  | (typeof PROVENANCE_FIELDS)[number];
type ValueOf<F extends FieldShape, V extends ValueTypes> = F["type"] extends "dateTime"
  ? V["dateTime"]
  : F["type"] extends "idList"
    ? V["idList"]
    : V["other"];
type RequiredValues<V extends ValueTypes> = {
  [F in FlatRow as F["optional"] extends true ? never : F["name"]]: ValueOf<F, V>;
};
type OptionalValues<V extends ValueTypes> = {
  [F in FlatRow as F["optional"] extends true ? F["name"] : never]?: ValueOf<F, V>;
};

/** A showtime's values by flat name, typed from the tables: an optional row is an optional member. */
export type ShowtimeValues<V extends ValueTypes> = RequiredValues<V> & OptionalValues<V>;
