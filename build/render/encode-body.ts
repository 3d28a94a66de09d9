/** A stored body from its identity bytes: the gzip clients are sent, and the tag of the bytes. */
import { gzipSync } from "node:zlib";
import { contentTag } from "../../api/_core/respond/body-tag.js";
import type { StoredBody } from "../../api/_core/format/layout/body-index.js";

export function encodeStoredBody(body: Uint8Array, level: number): StoredBody {
  const gzip = gzipSync(body, { level });
  // In an ArrayBuffer of its own, so a worker can transfer it rather than copy it.
  const own = Buffer.from(new ArrayBuffer(gzip.length));
  own.set(gzip);
  return { etag: contentTag(body), gzip: own };
}
