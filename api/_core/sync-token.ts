/**
 * Sync tokens of the changes feed (decision: changes feed): opaque to clients, naming a generation
 * of one history. Integrity-checked like cursors (an altered token is a 400); whether the
 * snapshot still holds the changes since it is the history's to say (a 410 otherwise).
 */
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto";

const TOKEN_VERSION = 1;
const MAC_BYTES = 12;
const MAC_SECRET = createSecretKey(Buffer.from("cinema-listings/sync-token/v1", "utf8"));
/** A token is ~70 characters; anything much longer is not one. */
export const MAX_TOKEN_LENGTH = 256;

export interface SyncToken {
  /** The history's id (layout/history.ts). */
  history: string;
  generation: number;
}

const macOf = (payload: Buffer) => createHmac("sha256", MAC_SECRET).update(payload).digest().subarray(0, MAC_BYTES);

export function encodeSyncToken(token: SyncToken): string {
  const payload = Buffer.from(JSON.stringify([TOKEN_VERSION, token.history, token.generation]), "utf8");
  return Buffer.concat([macOf(payload), payload]).toString("base64url");
}

/** The token's history and generation, or undefined when it is not a token this API issued. */
export function decodeSyncToken(text: string): SyncToken | undefined {
  if (text.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const bytes = Buffer.from(text, "base64url");
  if (bytes.length <= MAC_BYTES || bytes.toString("base64url") !== text) return undefined;
  const payload = bytes.subarray(MAC_BYTES);
  if (!timingSafeEqual(bytes.subarray(0, MAC_BYTES), macOf(payload))) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== TOKEN_VERSION) return undefined;
  const [, history, generation] = parsed;
  if (typeof history !== "string" || !Number.isSafeInteger(generation) || generation < 0) return undefined;
  return { history, generation };
}
