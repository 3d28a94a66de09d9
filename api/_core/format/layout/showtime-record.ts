/**
 * The layout of showtime records in compact blocks, shared by the encoder (write/) and the
 * decoder (read/). A block holds consecutive records of one cluster (a cinema's
 * showtimes, or a film's) in list order; each record is a row of dictionary codes and three
 * strings coded against the previous
 * record's (shared prefix length, then the rest), as RocksDB codes keys. Every RESTART records
 * the coding starts over from the block's base strings, so any record is reached by decoding at
 * most RESTART - 1 others, and a restart's start time is stored whole for binary search.
 *
 * Block payload:
 *   varint count, varint restartInterval
 *   chunk baseId, chunk baseUrl, chunk baseExternalId        (escaped JSON text, UTF-8)
 *   varint n, n varints: the attribute-set codes present     (lets a filter skip the block)
 *   u16 × ceil(count / restartInterval): restart offsets, relative to the first record
 *   records
 * Record (the fields of layout/showtime-fields.ts, in that order):
 *   u8 flags
 *   varint start-time code: zigzag delta from the previous record's, or whole after a restart
 *   id string; film code unless OTHER_SAME; url string if HAS_URL; attribute-set code unless
 *   ATTRS_SAME; if SCREEN_CHANGED, screen code + 1 (0: no screenName); observedAt and provider
 *   codes unless OBSERVED_SAME; if UPDATED_CHANGED, sourceUpdatedAt code + 1 (0: none);
 *   externalId string; if EXTENDED, a varint mask of the extension fields that follow, then per
 *   bit set, lowest first, the field's value as canonical JSON text: varint length, bytes.
 * String: varint shared-prefix length, varint rest length, rest bytes. "Previous" after a restart
 * is the block's base strings, code -1 (no screen, no sourceUpdatedAt) and start-time code 0.
 *
 * Room for more optional fields (decision: showtime fields added later): a field added later is an
 * extension row of the shape table, bit i of the mask (EXTENSION_FIELDS[i]), written after
 * externalId only by records that have it, whole (not coded against the previous record's). Records
 * without any leave EXTENDED unset, so snapshots written before the field existed read as they are.
 */
import { type FieldShape, PROVENANCE_FIELDS, SHOWTIME_FIELDS, valueFieldsOf } from "./showtime-fields.js";

export const HAS_URL = 1;
export const OTHER_SAME = 2;
export const ATTRS_SAME = 4;
export const SCREEN_CHANGED = 8;
export const OBSERVED_SAME = 16;
export const UPDATED_CHANGED = 32;
/** Not used yet: the last bit but one stays free for a change of the record itself. */
export const RESERVED = 64;
export const EXTENDED = 128;

/** The shape table's extension rows, by mask bit: bit i is the i-th (none yet: every field has a place above). */
export const EXTENSION_FIELDS: readonly FieldShape[] = valueFieldsOf(SHOWTIME_FIELDS, PROVENANCE_FIELDS).filter(
  (field) => field.stored === "extension",
);

/** A showtime as the encoder takes it: dictionary codes and escaped UTF-8 strings. */
export interface ShowtimeRow {
  startsAt: number;
  /** The reference the cluster does not imply: the film in a cinema's cluster, the cinema in a film's. */
  other: number;
  attributes: number;
  /** -1 when the showtime has no screenName. */
  screen: number;
  observed: number;
  provider: number;
  /** -1 when provenance has no sourceUpdatedAt. */
  updated: number;
  id: Uint8Array;
  /** Empty when the showtime has no bookingUrl. */
  url: Uint8Array;
  externalId: Uint8Array;
  /** By extension bit: the value's canonical JSON (UTF-8), or undefined when the record has none. */
  extensions: ReadonlyArray<Uint8Array | undefined>;
}

/** The longest a record's three strings may be: every id, URL and externalId has a bounded length in the spec. */
export const MAX_STRING_BYTES = 4096;
