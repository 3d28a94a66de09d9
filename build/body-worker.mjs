// Assembles, compresses and tags precomputed bodies off the main thread (plain JS: worker threads
// load it without tsx). A body arrives as parts: literal text, and handles of records in the
// build's RecordArena, whose shared memory this worker reads directly (layout from record-arena.ts).
import { createHash } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import { gzipSync } from "node:zlib";

const { level, chunks, layout, etagLength } = workerData;
const views = chunks.map((shared) => Buffer.from(shared));

function recordBytes(handle) {
  const chunk = views[Math.floor(handle / layout.chunkBytes)];
  const at = handle % layout.chunkBytes;
  return chunk.subarray(at + layout.lengthBytes, at + layout.lengthBytes + chunk.readUInt32LE(at));
}

// The body file of body-file.ts: the entity tag of the identity bytes (etagOf), then their gzip.
function encode(parts) {
  const body = Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : recordBytes(part))));
  const etag = createHash("sha256").update(body).digest("base64url").slice(0, etagLength);
  const gzip = gzipSync(body, { level });
  // Its own ArrayBuffer, so it can be transferred back rather than copied.
  const file = Buffer.allocUnsafeSlow(etagLength + gzip.length);
  file.write(etag, 0, "latin1");
  gzip.copy(file, etagLength);
  return file;
}

parentPort.on("message", ({ id, bodies }) => {
  const out = bodies.map(encode);
  parentPort.postMessage({ id, out }, out.map((file) => file.buffer));
});
