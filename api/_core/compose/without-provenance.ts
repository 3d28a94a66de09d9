/**
 * A film or cinema as find_showtimes lists it (decision: MCP): its record's JSON as stored, less
 * its top-level `provenance` member, byte for byte what JSON.stringify writes of the record parsed
 * with that member deleted. Read where the members lie, not parsed: only the record's top level is
 * walked, and a string is skipped to its closing quote.
 */
import type { PageBuffer } from "../format/primitives/page-buffer.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** `"provenance"`, as the key is written. */
const PROVENANCE_KEY = Buffer.from('"provenance"');

/** The end of the string whose opening quote is at `at`; -1 when it does not close. */
function stringEnd(json: Uint8Array, at: number): number {
  let close = json.indexOf(QUOTE, at + 1);
  while (close !== -1) {
    let backslashes = 0;
    while (json[close - 1 - backslashes] === BACKSLASH) backslashes++;
    // An even run of backslashes escapes itself: the quote closes the string.
    if (backslashes % 2 === 0) return close + 1;
    close = json.indexOf(QUOTE, close + 1);
  }
  return -1;
}

/** The end of the value at `at` (an object or array to its close; a scalar up to what follows it); -1 when none. */
function valueEnd(json: Uint8Array, at: number): number {
  let depth = 0;
  for (let i = at; i < json.length; i++) {
    const c = json[i]!;
    if (c === QUOTE) {
      i = stringEnd(json, i) - 1;
      if (i < 0) return -1;
      if (depth === 0) return i + 1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 0) return i === at ? -1 : i;
      if (--depth === 0) return i + 1;
    } else if (c === COMMA && depth === 0) return i === at ? -1 : i;
  }
  return -1;
}

/** Whether the key whose quote opens at `start` and closes before `colon` is `"provenance"`. */
function isProvenanceKey(json: Uint8Array, start: number, colon: number): boolean {
  if (colon - start !== PROVENANCE_KEY.length) return false;
  for (let i = 0; i < PROVENANCE_KEY.length; i++) if (json[start + i] !== PROVENANCE_KEY[i]) return false;
  return true;
}

/**
 * Where the record's top-level provenance member lies, with the comma that joins it to the others:
 * [start, end) to leave out. Undefined when it has none, or is not an object written compactly.
 */
export function provenanceSpan(json: Uint8Array): [number, number] | undefined {
  if (json[0] !== OPEN_OBJECT || json[1] === CLOSE_OBJECT) return undefined;
  let previousEnd = -1;
  for (let i = 1; ; ) {
    if (json[i] !== QUOTE) return undefined;
    const colon = stringEnd(json, i);
    if (colon === -1 || json[colon] !== COLON) return undefined;
    const end = valueEnd(json, colon + 1);
    if (end === -1) return undefined;
    const next = json[end];
    if (next !== COMMA && next !== CLOSE_OBJECT) return undefined;
    if (isProvenanceKey(json, i, colon)) {
      // The comma before it; for a first member, the one after it (none when it is the only one).
      if (previousEnd !== -1) return [previousEnd, end];
      return [i, next === COMMA ? end + 1 : end];
    }
    if (next === CLOSE_OBJECT) return undefined;
    previousEnd = end;
    i = end + 1;
  }
}

/** Writes the record into `out` without its top-level provenance (as it is when it has none). */
export function writeWithoutProvenance(record: Uint8Array, out: PageBuffer): void {
  const span = provenanceSpan(record);
  if (!span) {
    out.raw(record);
    return;
  }
  out.raw(record.subarray(0, span[0]));
  out.raw(record.subarray(span[1]));
}
