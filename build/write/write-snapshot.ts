/** The last stage: write the manifest (its presence marks a complete snapshot) and swap the snapshot in. */
import type { HistoryFacts } from "../../api/_core/format/layout/history.js";
import { SNAPSHOT_FORMAT, type Manifest } from "../../api/_core/format/layout/manifest.js";
import { writeManifest } from "../encode/write-files.js";
import { DEFAULT_LIMIT } from "../../api/_core/endpoints/parse-request.js";
import { utcTextOfKey } from "../../api/_core/format/primitives/date-time.js";
import type { DroppedShowtimes } from "../localize/drop-before.js";
import type { OutputWriter } from "./output-writer.js";
import type { RenderedSnapshot } from "../render/render-snapshot.js";

export async function writeSnapshot(
  rendered: Omit<RenderedSnapshot, "files"> & { files: Manifest["files"] },
  history: HistoryFacts,
  output: OutputWriter,
  dropped?: DroppedShowtimes,
): Promise<Manifest> {
  const manifest: Manifest = {
    format: SNAPSHOT_FORMAT,
    // A digest of every byte written: equal ids, equal snapshots (cursors and tags stay valid).
    snapshotId: output.digest(),
    defaultLimit: DEFAULT_LIMIT,
    counts: rendered.counts,
    freshness: rendered.freshness,
    files: rendered.files,
    history,
  };
  // Showtimes before it were left out on purpose (decision: upcoming showtimes); mirrors drop them too.
  // The instant asked for is for the next build only: outside the snapshot id, and never served.
  if (dropped) {
    manifest.dropBefore = dropped.effective;
    manifest.dropBeforeRequested = utcTextOfKey(dropped.before.key);
  }
  writeManifest(output, manifest);
  await output.commit();
  return manifest;
}
