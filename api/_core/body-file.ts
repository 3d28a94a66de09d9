/**
 * The format of a precomputed body file: a fixed-width strong entity tag, then the gzip of
 * the identity body. Compressed at build time so the snapshot stays small and the common
 * request (a client that accepts gzip) costs one read and no compression.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

export const ETAG_LENGTH = 22;

/** Entity tag of identity body bytes: 132 bits of SHA-256, base64url. */
export function etagOf(body: Buffer): string {
  return createHash("sha256").update(body).digest("base64url").slice(0, ETAG_LENGTH);
}

/** Encodes a body for the snapshot from its identity bytes and their gzip (made elsewhere, e.g. a worker). */
export function composeBodyFile(body: Buffer, gzip: Buffer): Buffer {
  return Buffer.concat([Buffer.from(etagOf(body), "latin1"), gzip]);
}

/** Encodes a body for the snapshot. */
export function encodeBodyFile(body: Buffer, gzipLevel: number): Buffer {
  return composeBodyFile(body, gzipSync(body, { level: gzipLevel }));
}

export interface StoredBody {
  etag: string;
  gzip: Buffer;
}

/** Bytes of a body in every coding held for it: what a cache of bodies counts it as. */
export function codingBytes(body: { identity?: Buffer; gzip?: Buffer; br?: Buffer }): number {
  return (body.identity?.length ?? 0) + (body.gzip?.length ?? 0) + (body.br?.length ?? 0);
}

/** Splits a body file into its tag and gzip bytes. */
export function decodeBodyFile(file: Buffer): StoredBody {
  if (file.length <= ETAG_LENGTH) throw new Error("body file is truncated");
  return { etag: file.subarray(0, ETAG_LENGTH).toString("latin1"), gzip: file.subarray(ETAG_LENGTH) };
}
