/**
 * The showtime record's shape, defined once (spec §2.2, §2.1): its fields in the order every
 * response writes them, whether each is optional, its bounds, and how the snapshot stores it.
 * The build's validator is derived from this table (build/schemas.ts); the renderer's literal
 * texts come from its names, and a property test renders random records made from it and
 * compares them with the validator's canonical JSON (test/showtime-shape.test.ts), so a field
 * the encoder or the renderer forgets fails there.
 */

/** How a field's value is kept in a record block (layout/showtime-record.ts). */
export type Stored =
  | "string" // coded against the previous record's value
  | "cluster" // the cinema whose cluster holds the record
  | "other" // a code per record: the film (in a cinema's cluster)
  | "dictionary" // a code into a dictionary of the snapshot's distinct values
  | "object"; // an object whose fields are listed apart

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

/** The provenance object of a showtime (spec §2.1). */
export const PROVENANCE_FIELDS = [
  { name: "observedAt", type: "dateTime", optional: false, stored: "dictionary" },
  { name: "sourceUpdatedAt", type: "dateTime", optional: true, stored: "dictionary" },
  { name: "provider", type: "text", min: 1, max: 80, optional: false, stored: "dictionary" },
  { name: "externalId", type: "text", min: 1, max: 240, optional: false, stored: "string" },
] as const satisfies readonly FieldShape[];

/** A showtime (spec §2.2), in response order. */
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

/** Ids are 1..160 code points (spec §2). */
export const ID_LENGTH = { min: 1, max: 160 } as const;

/** The JSON text that opens a member: `"name":`. */
export function memberKey(name: string): string {
  return `${JSON.stringify(name)}:`;
}
