/**
 * What the history stage compares of each record (decision: changes feed): the hashes of its id
 * and a digest of its JSON as the feed serves it, for every record of a type in store order. A
 * scan of 2M showtimes reads and inflates every block (~4 s), so the previous snapshot's scan
 * runs in a worker thread (history-scan-worker.ts) while the new snapshot's runs here.
 */
import { Worker } from "node:worker_threads";
import { crc32 } from "node:zlib";
import type { HistoryType } from "../../api/_core/format/layout/history.js";
import { PageBuffer } from "../../api/_core/format/primitives/page-buffer.js";
import { readManifest, Snapshot, type SnapshotLists } from "../../api/_core/format/read/snapshot.js";
import { idHashes } from "./id-table.js";
import { bundleWorkerModule, removeWorkerModule } from "../worker-module.js";

export interface RecordScan {
  count: number;
  /** Record i's id hashes at [3i, 3i + 3) (id-table.ts). */
  hashes: Uint32Array;
  /** Record i's 53-bit digest. */
  digests: Float64Array;
}

/** What the history stage reads of a snapshot it compares. */
export const HISTORY_READ = { pageBytes: 16 * 2 ** 20, blockBytes: 256 * 2 ** 20 };

/**
 * crc32 and a MurmurHash3-style word hash together: 53 bits, so a changed record passing for
 * unchanged is a 1 in 2^53 event. The word hash reads 4 bytes a step (a byte loop over 4M records
 * of ~430 bytes was a tenth of the history stage at 2M).
 */
export function digestOf(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const words = bytes.length >>> 2;
  let h = 0x9747b28c;
  for (let w = 0; w < words; w++) {
    let k = Math.imul(view.getUint32(w << 2, true), 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
  }
  for (let i = words << 2; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  h ^= bytes.length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return crc32(bytes) * 2 ** 21 + ((h >>> 0) & 0x1fffff);
}

/**
 * Every record of a type in store order: the hashes of its id as the comparison keys it
 * (showtimes: the escaped text's bytes; others: the id's UTF-8) and the digest of its JSON.
 */
export function scanRecords(lists: SnapshotLists, type: HistoryType): RecordScan {
  const count = type === "showtimes" ? lists.showtimes.count : lists[type].length;
  const hashes = new Uint32Array(3 * count);
  const digests = new Float64Array(count);
  const scan: RecordScan = { count, hashes, digests };
  const one = new Uint32Array(3);
  if (type !== "showtimes") {
    const store = lists[type];
    for (let i = 0; i < count; i++) {
      const id = Buffer.from(store.ids.text(i));
      idHashes(id, id.length, one);
      hashes.set(one, 3 * i);
      digests[i] = digestOf(store.records.entry(i));
    }
    return scan;
  }
  const out = new PageBuffer();
  lists.showtimes.forEachRendered(out, (r, id, idLength) => {
    idHashes(id, idLength, one);
    hashes[3 * r] = one[0]!;
    hashes[3 * r + 1] = one[1]!;
    hashes[3 * r + 2] = one[2]!;
    digests[r] = digestOf(out.bytes.subarray(0, out.length));
  });
  return scan;
}

/** Scans the showtimes of the snapshot in `dir` here, opening it on its own. */
export function scanShowtimesOf(dir: string): RecordScan {
  const snapshot = new Snapshot(readManifest(dir), dir, HISTORY_READ);
  try {
    return scanRecords(snapshot.lists, "showtimes");
  } finally {
    snapshot.close();
  }
}

/** A scan under way in a worker: its result, or its end when the build stops first. */
export interface PendingScan {
  result(): Promise<RecordScan>;
  cancel(): void;
}

/**
 * Starts scanning the showtimes of the snapshot in `dir` in a worker thread; undefined when no
 * worker can be started (the caller scans on this thread).
 */
export async function scanShowtimesInWorker(dir: string): Promise<PendingScan | undefined> {
  const script = await bundleWorkerModule(new URL("./history-scan-worker.ts", import.meta.url));
  if (!script) return undefined;
  const worker = new Worker(script, { workerData: { dir } });
  const result = new Promise<RecordScan>((resolve, reject) => {
    worker.once("message", (message: { scan?: RecordScan; error?: string }) =>
      message.scan ? resolve(message.scan) : reject(new Error(message.error)),
    );
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the history scan's worker stopped (${code})`)));
  });
  // The module goes once the scan is over: at "online" the worker may not have loaded it yet.
  const end = () => {
    removeWorkerModule(script);
    void worker.terminate();
  };
  return {
    result: () => result.finally(end),
    cancel: () => {
      result.catch(() => {});
      end();
    },
  };
}
