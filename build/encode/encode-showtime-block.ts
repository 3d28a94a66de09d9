/** Encodes showtime blocks in the layout of layout/showtime-record.ts. */
import { ByteWriter, zigzag } from "../../api/_core/format/primitives/bytes.js";
import { MAX_EXTENSION_FIELDS, MAX_RECORD_BYTES } from "../../api/_core/format/layout/showtime-fields.js";
import {
  ATTRS_SAME,
  EXTENDED,
  HAS_URL,
  MAX_STRING_BYTES,
  OBSERVED_SAME,
  OTHER_SAME,
  SCREEN_CHANGED,
  UPDATED_CHANGED,
  type ShowtimeRow,
} from "../../api/_core/format/layout/showtime-record.js";

const EMPTY = new Uint8Array(0);

function sharedPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

function writeString(out: ByteWriter, last: Uint8Array, value: Uint8Array): void {
  const shared = sharedPrefix(last, value);
  out.varint(shared);
  out.chunk(value.subarray(shared));
}

/** The mask of a row's extension values (bit i: EXTENSION_FIELDS[i] present); 0 when it has none. */
function extensionMaskOf(row: ShowtimeRow): number {
  const values = row.extensions;
  if (values.length > MAX_EXTENSION_FIELDS) throw new Error("a showtime has more extension fields than a mask holds");
  let mask = 0;
  let bytes = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined) continue;
    // A record's JSON is at most MAX_RECORD_BYTES (decision: record size): so are its extension values.
    bytes += value.length;
    if (value.length === 0) throw new Error("a showtime's extension value is empty, which no JSON text is");
    if (bytes > MAX_RECORD_BYTES) throw new Error("a showtime's extension values are too long to encode");
    mask |= 1 << i;
  }
  return mask;
}

/** The extension mask and each present value, length-prefixed, lowest bit first. */
function writeExtensions(out: ByteWriter, mask: number, row: ShowtimeRow): void {
  out.varint(mask);
  for (const value of row.extensions) if (value !== undefined) out.chunk(value);
}

/** Encodes one block of rows (consecutive records of one cinema, in list order). */
export function encodeShowtimeBlock(rows: readonly ShowtimeRow[], restartInterval: number): Uint8Array {
  if (rows.length === 0) throw new Error("a block holds at least one record");
  const baseId = rows[0]!.id;
  const baseUrl = rows.find((r) => r.url.length > 0)?.url ?? EMPTY;
  const baseExt = rows[0]!.externalId;
  const records = new ByteWriter(rows.length * 24);
  const restarts: number[] = [];
  const fresh = () => ({
    id: baseId,
    url: baseUrl,
    ext: baseExt,
    st: 0,
    other: -1,
    attrs: -1,
    screen: -1,
    observed: -1,
    provider: -1,
    updated: -1,
  });
  let last = fresh();
  rows.forEach((row, i) => {
    if (i % restartInterval === 0) {
      restarts.push(records.length);
      last = fresh();
    }
    for (const s of [row.id, row.url, row.externalId])
      if (s.length > MAX_STRING_BYTES) throw new Error("a showtime string is too long to encode");
    const hasUrl = row.url.length > 0;
    const extensionMask = extensionMaskOf(row);
    let flags = hasUrl ? HAS_URL : 0;
    if (extensionMask !== 0) flags |= EXTENDED;
    if (row.other === last.other) flags |= OTHER_SAME;
    if (row.attributes === last.attrs) flags |= ATTRS_SAME;
    if (row.screen !== last.screen) flags |= SCREEN_CHANGED;
    if (row.observed === last.observed && row.provider === last.provider) flags |= OBSERVED_SAME;
    if (row.updated !== last.updated) flags |= UPDATED_CHANGED;
    records.u8(flags);
    records.varint(zigzag(row.startsAt - last.st));
    writeString(records, last.id, row.id);
    if (!(flags & OTHER_SAME)) records.varint(row.other);
    if (hasUrl) writeString(records, last.url, row.url);
    if (!(flags & ATTRS_SAME)) records.varint(row.attributes);
    if (flags & SCREEN_CHANGED) records.varint(row.screen + 1);
    if (!(flags & OBSERVED_SAME)) {
      records.varint(row.observed);
      records.varint(row.provider);
    }
    if (flags & UPDATED_CHANGED) records.varint(row.updated + 1);
    writeString(records, last.ext, row.externalId);
    if (extensionMask !== 0) writeExtensions(records, extensionMask, row);
    last = {
      id: row.id,
      url: hasUrl ? row.url : last.url,
      ext: row.externalId,
      st: row.startsAt,
      other: row.other,
      attrs: row.attributes,
      screen: row.screen,
      observed: row.observed,
      provider: row.provider,
      updated: row.updated,
    };
  });
  const out = new ByteWriter(records.length + 256);
  out.varint(rows.length);
  out.varint(restartInterval);
  out.chunk(baseId);
  out.chunk(baseUrl);
  out.chunk(baseExt);
  const attributeSets = [...new Set(rows.map((r) => r.attributes))].sort((a, b) => a - b);
  out.varint(attributeSets.length);
  for (const code of attributeSets) out.varint(code);
  for (const offset of restarts) {
    if (offset > 0xffff) throw new Error("a showtime block's records exceed 64 KB");
    out.u16(offset);
  }
  out.raw(records.finish());
  return out.finish();
}
