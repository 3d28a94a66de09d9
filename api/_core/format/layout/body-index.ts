/**
 * Stored response bodies: every default-limit page of the four unfiltered lists and every
 * get-one of a cinema or film, as final gzip bytes with their entity tag, so the commonest
 * requests cost one lookup and one read. A body is found by a 160-bit SHA-256 of what it answers
 * (keyed like git's pack index: a 256-entry fan-out, then sorted keys) in bodies.index; each body
 * is a checksummed block of its own in bodies.blocks.
 */
import { createHash } from "node:crypto";
import type { ListResource } from "./manifest.js";

export const KEY_BYTES = 20;
export const ENTRY_BYTES = KEY_BYTES + 12;
export const FANOUT_BYTES = 256 * 4;
export const ETAG_LENGTH = 22;
export const KEYS_SECTION = "bodies.keys";

/** What a stored body answers. `after` is the sort key of the record before the page (null: the first page). */
export type BodyKey =
  | { kind: "page"; resource: ListResource; after: readonly string[] | null }
  | { kind: "one"; resource: "cinemas" | "films"; id: string };

export function bodyKeyOf(key: BodyKey): Buffer {
  const parts = key.kind === "one" ? ["one", key.resource, key.id] : ["page", key.resource, key.after];
  return createHash("sha256").update(JSON.stringify(parts)).digest().subarray(0, KEY_BYTES);
}

export interface StoredBody {
  /** Strong entity tag of the identity bytes (body-tag.ts). */
  etag: string;
  gzip: Buffer;
}
