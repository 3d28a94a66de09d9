/**
 * Opaque, integrity-checked texts the API hands out and takes back (cursors, sync tokens): a JSON
 * payload behind a truncated HMAC, in URL-safe base64. The MAC is for integrity (an altered or
 * garbage text is a 400, never a 500), not secrecy: each kind has its own fixed key, so builds and
 * servers stay reproducible.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";

const MAC_BYTES = 12;

export interface Sealer {
  seal(payload: Buffer): string;
  /** The payload parsed as JSON, or undefined when the text is malformed, altered or longer than `maxLength`. */
  open(text: string, maxLength: number): unknown;
}

export function sealer(key: string): Sealer {
  // Imported once: a string key is imported again by every createHmac call.
  const secret: KeyObject = createSecretKey(Buffer.from(key, "utf8"));
  const macOf = (payload: Buffer) => createHmac("sha256", secret).update(payload).digest().subarray(0, MAC_BYTES);
  return {
    seal: (payload) => Buffer.concat([macOf(payload), payload]).toString("base64url"),
    open(text, maxLength) {
      if (text.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
      const bytes = Buffer.from(text, "base64url");
      if (bytes.length <= MAC_BYTES || bytes.toString("base64url") !== text) return undefined;
      const payload = bytes.subarray(MAC_BYTES);
      if (!timingSafeEqual(bytes.subarray(0, MAC_BYTES), macOf(payload))) return undefined;
      try {
        return JSON.parse(payload.toString("utf8"));
      } catch {
        return undefined;
      }
    },
  };
}
