/**
 * Reading the members of a JSON object and the elements of an array where they lie in the text,
 * without building them: what a tool needs to cut the API's page into its structured content's
 * shape (showtime-listing.ts) without parsing it and writing it again. It reads JSON as the API
 * writes it, JSON.stringify's compact form; told it may (`isPlainJson`) only when no string of the
 * text holds an escape, it finds a string's end at its next quote. Anything else it meets (white
 * space, a truncated text) ends the reading with -1: the caller takes the slow road.
 */

const SPACE = 0x20;
export const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Whether the text holds no escape (no backslash): each string then ends at its next quote. */
export const isPlainJson = (json: string) => json.indexOf("\\") === -1;

/**
 * Whether `json` holds `text` at `at`. (String.prototype.startsWith, which says the same, took
 * several times as long on a page's text.)
 */
export function holdsAt(json: string, at: number, text: string): boolean {
  if (text.length > 32) return json.slice(at, at + text.length) === text;
  for (let i = 0; i < text.length; i++) if (json.charCodeAt(at + i) !== text.charCodeAt(i)) return false;
  return true;
}

/** Whether the member whose key opens at `start` and ends before `colon` has the key `key` (no escapes). */
export const isKey = (json: string, start: number, colon: number, key: string) =>
  colon - start === key.length + 2 && holdsAt(json, start + 1, key);

/** The end of the string starting at `at` (its opening quote); -1 when it has none. */
function stringEnd(json: string, at: number): number {
  const close = json.indexOf('"', at + 1);
  return close === -1 ? -1 : close + 1;
}

/** The end of the object or array starting at `at`; -1 when it does not close. */
function nestedEnd(json: string, at: number): number {
  let depth = 0;
  for (let i = at; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(json, i) - 1;
      if (i < 0) return -1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * The end of the value starting at `at` (a number, true, false or null: up to what follows it); -1
 * when none, or white space in it.
 */
export function valueEnd(json: string, at: number): number {
  const c = json.charCodeAt(at);
  if (c === QUOTE) return stringEnd(json, at);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) return nestedEnd(json, at);
  let i = at;
  while (i < json.length) {
    const d = json.charCodeAt(i);
    if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY) break;
    if (d <= SPACE) return -1;
    i++;
  }
  return i === at || i === json.length ? -1 : i;
}

/**
 * Reads the object starting at `at`: `member` is told of each member in order (where its key's
 * opening quote is and the colon after the key) and answers where its value ends (valueEnd, or
 * quicker for a value it knows), -1 to stop. The object's end; -1 when it is not one as written.
 */
export function readObject(json: string, at: number, member: (start: number, colon: number) => number): number {
  if (json.charCodeAt(at) !== OPEN_OBJECT) return -1;
  let i = at + 1;
  if (json.charCodeAt(i) === CLOSE_OBJECT) return i + 1;
  for (;;) {
    if (json.charCodeAt(i) !== QUOTE) return -1;
    const colon = stringEnd(json, i);
    if (colon === -1 || json.charCodeAt(colon) !== COLON) return -1;
    const end = member(i, colon);
    if (end === -1) return -1;
    const next = json.charCodeAt(end);
    if (next === CLOSE_OBJECT) return end + 1;
    if (next !== COMMA) return -1;
    i = end + 1;
  }
}

/**
 * Reads the array starting at `at`: `element` is told where each element starts and answers where
 * it ends, -1 to stop. The array's end; -1 when it is not one as written.
 */
export function readArray(json: string, at: number, element: (start: number) => number): number {
  if (json.charCodeAt(at) !== OPEN_ARRAY) return -1;
  let i = at + 1;
  if (json.charCodeAt(i) === CLOSE_ARRAY) return i + 1;
  for (;;) {
    const end = element(i);
    if (end === -1) return -1;
    const next = json.charCodeAt(end);
    if (next === CLOSE_ARRAY) return end + 1;
    if (next !== COMMA) return -1;
    i = end + 1;
  }
}
