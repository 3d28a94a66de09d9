/**
 * The history stage's worker: scans the previous snapshot's showtimes (history-scan.ts) while the
 * main thread scans the new one's, and hands back the typed arrays without copying them.
 */
import { parentPort, workerData } from "node:worker_threads";
import { scanShowtimesOf } from "./history-scan.js";

const { dir } = workerData as { dir: string };
try {
  const scan = scanShowtimesOf(dir);
  parentPort!.postMessage({ scan }, [scan.hashes.buffer as ArrayBuffer, scan.digests.buffer as ArrayBuffer]);
} catch (error) {
  // The message only: the main thread names the snapshot that could not be read.
  parentPort!.postMessage({ error: (error as Error).message });
}
