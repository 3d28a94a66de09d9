/**
 * Entity tags (decision: HTTP). A stored body's tag is 132 bits of the SHA-256 of its bytes, made
 * at build time, so an unchanged page keeps its tag across rebuilds. A composed body's tag names
 * what it answers in one snapshot (the snapshot id and the page's canonical query): a snapshot
 * never changes, so the same query always gives the same bytes, and hashing a few dozen bytes
 * instead of a 40 kB page is a sixth of the cost of composing one.
 */
// `hash`, one call, where `createHash` builds a Hash object per tag: a third of the CPU (Node ≥ 20.12).
import { hash } from "node:crypto";

export const ETAG_LENGTH = 22;

/** The tag of stored body bytes. */
export function contentTag(body: Uint8Array): string {
  return hash("sha256", body, "base64url").slice(0, ETAG_LENGTH);
}

/** The tag of a composed body: `identity` names the query it answers within the snapshot. */
export function composedTag(snapshotId: string, identity: string): string {
  return hash("sha256", `${snapshotId}\n${identity}`, "base64url").slice(0, ETAG_LENGTH);
}
