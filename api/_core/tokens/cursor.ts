/**
 * Opaque pagination cursors. A cursor names the last record served (keyset, not offset), so it
 * survives rebuilds, and is bound to its endpoint and filters. The MAC is for integrity (garbage
 * and edits become a 400), not secrecy: a forged cursor could only name a position that
 * startsAfter reaches anyway, so a fixed key is enough and keeps builds reproducible.
 */
import { createHash } from "node:crypto";
import { sealer } from "./sealed.js";

const CURSOR_VERSION = 1;
const MAC_KEY = "cinema-listings/cursor/v1";
/**
 * The longest cursor taken (decision: pagination): a discovery list's cursor carries a title (300
 * characters at most) and an id (160), which JSON may write 6 bytes a character.
 */
export const MAX_CURSOR_LENGTH = 4096;
/** The most parts a sort key has: a rank, a count and a title before the id. */
const MAX_KEY_PARTS = 4;

export interface CursorPayload {
  /** Fingerprint of endpoint and filters the cursor was issued for. */
  binding: string;
  /**
   * Sort key of the last record served (record-list.ts Seek): [instantKey, id] for showtimes, [id] for a plain
   * list.
   */
  after: string[];
}

/** Filters the first cursors bound, by position: [resource, cinemaId, filmId, startsAfter], null when absent. */
const POSITIONAL = ["cinemaId", "filmId", "startsAfter"];
/**
 * Filters the second generation bound as one object with every key (null when absent), present only
 * when one of them is given, so that the first generation's bindings did not change.
 */
const GROUPED = ["startsBefore", "attributeIds", "near", "countryCode"];

/**
 * Fingerprint of an endpoint and its bound filters (parameters/parameter.ts boundFieldsOf: [key,
 * JSON value] in table order), as carried in cursors. The first two generations are hashed exactly
 * as they always were; every filter added since binds alone as [key, value], and only when given,
 * so adding a parameter never changes the binding of a cursor already issued. A market's snapshot
 * binds its market id last (decision: markets), so a cursor of one market is refused on another; a
 * snapshot without a market binds nothing more.
 */
export function bindingOf(
  resource: string,
  bound: ReadonlyArray<readonly [string, unknown]> = [],
  market?: string,
): string {
  const boundValue = (key: string) => bound.find(([k]) => k === key)?.[1] ?? null;
  const parts: unknown[] = [resource, ...POSITIONAL.map(boundValue)];
  if (bound.some(([key]) => GROUPED.includes(key)))
    parts.push(Object.fromEntries(GROUPED.map((key) => [key, boundValue(key)])));
  for (const [key, value] of bound) if (!POSITIONAL.includes(key) && !GROUPED.includes(key)) parts.push([key, value]);
  if (market !== undefined) parts.push(["market", market]);
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 16);
}

const SEALER = sealer(MAC_KEY);

/**
 * Encodes a cursor as a URL-safe string, from a sort key whose parts are already JSON-escaped text
 * (as the snapshot stores ids): the payload is `JSON.stringify([version, binding, ...sortKey])`
 * byte for byte, without unescaping and escaping the id again.
 */
export function encodeCursorEscaped(binding: string, head: readonly string[] | undefined, escapedId: string): string {
  const key = head === undefined || head.length === 0 ? `"${escapedId}"` : `"${head.join('","')}","${escapedId}"`;
  return SEALER.seal(Buffer.from(`[${CURSOR_VERSION},"${binding}",${key}]`, "utf8"));
}

/** Decodes a cursor, or returns undefined when it is malformed or was altered. */
export function decodeCursor(token: string): CursorPayload | undefined {
  const parsed = SEALER.open(token, MAX_CURSOR_LENGTH);
  if (!Array.isArray(parsed) || parsed[0] !== CURSOR_VERSION || parsed.length < 3 || parsed.length > 2 + MAX_KEY_PARTS)
    return undefined;
  if (!parsed.slice(1).every((part) => typeof part === "string")) return undefined;
  return { binding: parsed[1] as string, after: parsed.slice(2) as string[] };
}
