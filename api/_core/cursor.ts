/**
 * Opaque pagination cursors. A cursor names the last record served (keyset, not offset), so it
 * survives rebuilds, and is bound to its endpoint and filters. The MAC is for integrity (garbage
 * and edits become a 400), not secrecy: a forged cursor could only name a position that
 * startsAfter reaches anyway, so a fixed key is enough and keeps builds reproducible.
 */
import { createHash, createHmac, createSecretKey, timingSafeEqual } from "node:crypto";

const CURSOR_VERSION = 1;
const MAC_KEY = "cinema-listings/cursor/v1";
const MAC_BYTES = 12;
export const MAX_CURSOR_LENGTH = 2048;

export interface CursorPayload {
  /** Fingerprint of endpoint and filters the cursor was issued for. */
  binding: string;
  /** Sort key of the last record served: [instantKey, id] for showtimes, [id] otherwise. */
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
 * so adding a parameter never changes the binding of a cursor already issued.
 */
export function bindingOf(resource: string, bound: ReadonlyArray<readonly [string, unknown]> = []): string {
  const boundValue = (key: string) => bound.find(([k]) => k === key)?.[1] ?? null;
  const parts: unknown[] = [resource, ...POSITIONAL.map(boundValue)];
  if (bound.some(([key]) => GROUPED.includes(key)))
    parts.push(Object.fromEntries(GROUPED.map((key) => [key, boundValue(key)])));
  for (const [key, value] of bound) if (!POSITIONAL.includes(key) && !GROUPED.includes(key)) parts.push([key, value]);
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 16);
}

// Imported once: a string key is imported again by every createHmac call.
const MAC_SECRET = createSecretKey(Buffer.from(MAC_KEY, "utf8"));

function macOf(payload: Buffer): Buffer {
  return createHmac("sha256", MAC_SECRET).update(payload).digest().subarray(0, MAC_BYTES);
}

function sealPayload(payload: Buffer): string {
  return Buffer.concat([macOf(payload), payload]).toString("base64url");
}

/**
 * Encodes a cursor as a URL-safe string, from a sort key whose id is already JSON-escaped text
 * (as the snapshot stores ids): the payload is `JSON.stringify([version, binding, ...sortKey])`
 * byte for byte, without unescaping and escaping the id again.
 */
export function encodeCursorEscaped(binding: string, instantKey: string | undefined, escapedId: string): string {
  const key = instantKey === undefined ? `"${escapedId}"` : `"${instantKey}","${escapedId}"`;
  return sealPayload(Buffer.from(`[${CURSOR_VERSION},"${binding}",${key}]`, "utf8"));
}

/** Decodes a cursor, or returns undefined when it is malformed or was altered. */
export function decodeCursor(token: string): CursorPayload | undefined {
  if (token.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length <= MAC_BYTES || bytes.toString("base64url") !== token) return undefined;
  const payload = bytes.subarray(MAC_BYTES);
  if (!timingSafeEqual(bytes.subarray(0, MAC_BYTES), macOf(payload))) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed[0] !== CURSOR_VERSION || parsed.length < 3 || parsed.length > 4)
    return undefined;
  if (!parsed.slice(1).every((part) => typeof part === "string")) return undefined;
  return { binding: parsed[1] as string, after: parsed.slice(2) as string[] };
}
