/** Writes a snapshot's changes history (layout/history.ts) into history.pages. */
import {
  CHANGED_CHUNK,
  HISTORY_META,
  HISTORY_TYPES,
  type HistoryMeta,
  type HistoryType,
  historySections,
  SHOWTIMES_CHANGED_MAX,
} from "../../api/_core/format/layout/history.js";
import type { DataFileFacts } from "../../api/_core/format/layout/manifest.js";
import { HISTORY_FILE } from "../../api/_core/format/primitives/files.js";
import { encodePacked } from "../../api/_core/format/primitives/packed.js";
import { PagedFileWriter } from "../../api/_core/format/primitives/paged-file.js";
import { encodeTextChunks } from "../../api/_core/format/primitives/text-chunks.js";
import type { SnapshotOutput } from "./write-files.js";

/** A deletion the feed keeps: when it happened, and the change as the feed writes it. */
export interface Deletion {
  generation: number;
  text: Uint8Array;
}

/** Everything a history file holds, generations absolute. */
export interface HistoryContent {
  meta: HistoryMeta;
  /** Per type, the generation each record (in store order) last changed in. */
  changed: Record<HistoryType, ArrayLike<number>>;
  /** Per type, the deletions kept, in generation order. */
  deletes: Record<HistoryType, readonly Deletion[]>;
}

/** Generations relative to the horizon, 0 for anything at or before it: small numbers, packed small. */
function relative(values: ArrayLike<number>, horizon: number): Uint32Array {
  return Uint32Array.from({ length: values.length }, (_, i) => Math.max(0, values[i]! - horizon));
}

function chunkMaxima(values: Uint32Array): Uint32Array {
  const maxima = new Uint32Array(Math.ceil(values.length / CHANGED_CHUNK));
  for (let i = 0; i < values.length; i++) {
    const c = Math.floor(i / CHANGED_CHUNK);
    if (values[i]! > maxima[c]!) maxima[c] = values[i]!;
  }
  return maxima;
}

/** Writes history.pages; returns what the manifest records of it. */
export function writeHistory(
  output: SnapshotOutput,
  history: HistoryContent,
): Record<typeof HISTORY_FILE, DataFileFacts> {
  const { meta } = history;
  const file = new PagedFileWriter(output.openAppend(HISTORY_FILE));
  file.add(HISTORY_META, new Uint8Array(Buffer.from(JSON.stringify(meta))));
  for (const type of HISTORY_TYPES) {
    const names = historySections(type);
    const changed = relative(history.changed[type], meta.horizon);
    file.add(names.changed, encodePacked(changed));
    if (type === "showtimes") file.add(SHOWTIMES_CHANGED_MAX, encodePacked(chunkMaxima(changed)));
    const deletes = history.deletes[type];
    file.add(names.deletes, encodeTextChunks(deletes.map((d) => d.text)));
    file.add(
      names.deletesAt,
      encodePacked(
        relative(
          deletes.map((d) => d.generation),
          meta.horizon,
        ),
      ),
    );
  }
  return { [HISTORY_FILE]: file.finish() } as Record<typeof HISTORY_FILE, DataFileFacts>;
}
