/**
 * The fixed JSON texts a showtime is rendered between, made from the names of its shape table
 * (layout/showtime-fields.ts) in the table's order. A record is rendered as
 *   {"id":"<id>","filmId":"<film>","cinemaId":"<cinema>","startsAt":"<startsAt>"[,"endsAt":"<end>"]
 *   [,"bookingUrl":"<url>"],"attributeIds":<set>[,"screenName":"<screen>"]
 *   ,"provenance":{"observedAt":"<t>"[,"sourceUpdatedAt":"<t>"],"provider":"<p>","externalId":"<e>"}
 *   [,"<extension>":<json>]…}
 * (extension fields in the table's order, each only when the record has it), and
 * test/showtime-shape.test.ts checks that this is the validator's canonical JSON; `endsAt` is
 * derived, not a source field (layout/showtime-fields.ts ENDS_AT).
 */
import { ENDS_AT, type FieldShape, memberKey, PROVENANCE_FIELDS, SHOWTIME_FIELDS } from "../layout/showtime-fields.js";

/** `"name":` of a field of the table, failing at load when the table has no such field. */
function key(fields: readonly FieldShape[], name: string): string {
  if (!fields.some((f) => f.name === name)) throw new Error(`the showtime shape has no field ${name}`);
  return memberKey(name);
}
const showtime = (name: string) => key(SHOWTIME_FIELDS, name);
const provenance = (name: string) => key(PROVENANCE_FIELDS, name);

export const SHOWTIME_TEXTS = {
  idOpen: `{${showtime("id")}"`,
  film: `",${showtime("filmId")}"`,
  cinemaOpen: `",${showtime("cinemaId")}"`,
  cinemaClose: `",${showtime("startsAt")}"`,
  startsAtClose: '"',
  /** The derived end, after the start it is derived from (read/showtime-ends.ts). */
  endsAtOpen: `,${memberKey(ENDS_AT.name)}"`,
  endsAtClose: '"',
  urlOpen: `,${showtime("bookingUrl")}"`,
  urlClose: '"',
  attributes: `,${showtime("attributeIds")}`,
  screenOpen: `,${showtime("screenName")}"`,
  screenClose: '"',
  observedOpen: `,${showtime("provenance")}{${provenance("observedAt")}"`,
  observedClose: '"',
  updatedOpen: `,${provenance("sourceUpdatedAt")}"`,
  updatedClose: '"',
  providerOpen: `,${provenance("provider")}"`,
  providerClose: `",${provenance("externalId")}"`,
  close: '"}}',
  /** A record with extension fields closes its provenance, then its members, then itself. */
  provenanceClose: '"}',
  recordClose: "}",
} as const;

/** `,"name":`, which opens an extension field's member. */
export function extensionOpen(field: FieldShape): string {
  if (field.stored !== "extension") throw new Error(`showtime field ${field.name} is not an extension field`);
  return `,${memberKey(field.name)}`;
}
