/** The Vercel-fit figure "largest response": measured for precomputed bodies, bounded for composed ones. */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import { BODY_PACK, LIST_RESOURCES, packFiles } from "../../api/_core/layout.js";
import { listPackIndex } from "../../api/_core/keyed-pack.js";
import { MAX_LIMIT } from "../../api/_core/route.js";

const MB = 2 ** 20;
/** Envelope of a page beyond its records: brackets, separators, pagination, freshness. */
const ENVELOPE_BOUND = 1024;

export interface ResponseSizes {
  /** The largest precomputed body as sent to a client without gzip, and as stored (gzip). */
  precomputedIdentityMb: number;
  precomputedGzipMb: number;
  /** No composed page can be larger: MAX_LIMIT (the spec's limit bound) of the largest record, plus the envelope. */
  composedBoundMb: number;
}

/**
 * The identity size of every stored body is its gzip member's ISIZE trailer (RFC 1952 §2.3.1, the
 * input length mod 2^32; bodies are far below 4 GiB), so no body is decompressed to measure it.
 */
function largestPrecomputed(snapshotDir: string): { identity: number; gzip: number } {
  const entries = listPackIndex(readFileSync(path.join(snapshotDir, BODY_PACK.index)));
  const fd = openSync(path.join(snapshotDir, BODY_PACK.data), "r");
  const trailer = Buffer.alloc(4);
  let identity = 0;
  let gzip = 0;
  try {
    for (const { offset, length } of entries) {
      readSync(fd, trailer, 0, 4, offset + length - 4);
      identity = Math.max(identity, trailer.readUInt32LE(0));
      gzip = Math.max(gzip, length);
    }
  } finally {
    closeSync(fd);
  }
  return { identity, gzip };
}

function largestRecord(snapshotDir: string): number {
  let largest = 0;
  for (const resource of LIST_RESOURCES) {
    const index = readFileSync(path.join(snapshotDir, packFiles(resource).recordsIndex));
    for (let i = 8; i < index.length; i += 8) largest = Math.max(largest, index.readDoubleLE(i) - index.readDoubleLE(i - 8));
  }
  return largest;
}

export function measureResponseSizes(snapshotDir: string): ResponseSizes {
  const precomputed = largestPrecomputed(snapshotDir);
  return {
    precomputedIdentityMb: precomputed.identity / MB,
    precomputedGzipMb: precomputed.gzip / MB,
    composedBoundMb: (MAX_LIMIT * (largestRecord(snapshotDir) + 1) + ENVELOPE_BOUND) / MB,
  };
}
