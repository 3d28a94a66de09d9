/**
 * Sync tokens of the changes feed (decision: changes feed): opaque to clients, naming a generation
 * of one history. Integrity-checked like cursors (an altered token is a 400); whether the
 * snapshot still holds the changes since it is the history's to say (a 410 otherwise).
 */
import { sealer } from "./sealed.js";

const TOKEN_VERSION = 1;
const SEALER = sealer("cinema-listings/sync-token/v1");
/** A token is ~70 characters; anything much longer is not one. */
export const MAX_TOKEN_LENGTH = 256;

export interface SyncToken {
  /** The history's id (layout/history.ts). */
  history: string;
  generation: number;
  /**
   * The market whose feed issued it (decision: markets): a fourth element only a market's snapshot
   * writes, so the tokens of a snapshot without markets are what they always were.
   */
  market?: string;
}

export function encodeSyncToken(token: SyncToken): string {
  const parts: unknown[] = [TOKEN_VERSION, token.history, token.generation];
  if (token.market !== undefined) parts.push(token.market);
  return SEALER.seal(Buffer.from(JSON.stringify(parts), "utf8"));
}

/** The token's history, generation and market, or undefined when it is not a token this API issued. */
export function decodeSyncToken(text: string): SyncToken | undefined {
  const parsed = SEALER.open(text, MAX_TOKEN_LENGTH);
  if (!Array.isArray(parsed) || parsed.length < 3 || parsed.length > 4 || parsed[0] !== TOKEN_VERSION) return undefined;
  const [, history, generation, market] = parsed;
  if (typeof history !== "string" || !Number.isSafeInteger(generation) || generation < 0) return undefined;
  if (parsed.length === 3) return { history, generation };
  return typeof market === "string" ? { history, generation, market } : undefined;
}
