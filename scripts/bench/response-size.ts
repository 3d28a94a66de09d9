/** The Vercel-fit figure "largest response": measured for stored bodies, bounded for composed ones. */
import { FreshnessFold } from "../../api/_core/format/read/freshness.js";
import { LIST_RESOURCES } from "../../api/_core/format/layout/manifest.js";
import { PageBuffer } from "../../api/_core/format/primitives/page-buffer.js";
import { readManifest, Snapshot } from "../../api/_core/format/read/snapshot.js";
import { MAX_LIMIT } from "../../api/_core/endpoints/parse-request.js";

const MB = 2 ** 20;
/** Envelope of a page beyond its records: brackets, separators, pagination, freshness. */
const ENVELOPE_BOUND = 1024;
/** Records rendered at once while measuring the largest. */
const CHUNK = 1000;

export interface ResponseSizes {
  /** The largest stored body as sent to a client without gzip, and as stored (gzip). */
  precomputedIdentityMb: number;
  precomputedGzipMb: number;
  /** No composed page can be larger: MAX_LIMIT (the spec's limit bound) of the largest record, plus the envelope. */
  composedBoundMb: number;
}

/**
 * The identity size of every stored body is its gzip member's ISIZE trailer (RFC 1952 §2.3.1, the
 * input length mod 2^32; bodies are far below 4 GiB), so no body is decompressed to measure it.
 */
function largestStored(snapshot: Snapshot): { identity: number; gzip: number } {
  let identity = 0;
  let gzip = 0;
  for (const address of snapshot.bodies.entries()) {
    const body = snapshot.bodies.read(address).gzip;
    identity = Math.max(identity, body.readUInt32LE(body.length - 4));
    gzip = Math.max(gzip, body.length);
  }
  return { identity, gzip };
}

/** The largest record of any list, rendered one at a time. */
function largestRecord(snapshot: Snapshot): number {
  const { lists } = snapshot;
  const out = new PageBuffer();
  let largest = 0;
  for (const resource of LIST_RESOURCES) {
    const list = lists.list(resource);
    for (let start = 0; start < list.length; start += CHUNK) {
      for (let i = start; i < Math.min(list.length, start + CHUNK); i++) {
        out.reset();
        list.render(i, i + 1, out, new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated));
        largest = Math.max(largest, out.length);
      }
    }
  }
  return largest;
}

export function measureResponseSizes(snapshotDir: string): ResponseSizes {
  const snapshot = new Snapshot(readManifest(snapshotDir), snapshotDir, { pageBytes: 16 * MB, blockBytes: 256 * MB });
  try {
    const stored = largestStored(snapshot);
    return {
      precomputedIdentityMb: stored.identity / MB,
      precomputedGzipMb: stored.gzip / MB,
      composedBoundMb: (MAX_LIMIT * (largestRecord(snapshot) + 1) + ENVELOPE_BOUND) / MB,
    };
  } finally {
    snapshot.close();
  }
}
