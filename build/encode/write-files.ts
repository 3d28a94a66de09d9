/**
 * The writing half of the format, for the build: lays out index.pages and records.blocks from the
 * snapshot's content, opens bodies.blocks for the stored bodies, and writes the manifest last.
 */
import { BlockFileWriter } from "../../api/_core/format/primitives/block-file.js";
import type { SnapshotContent } from "../../api/_core/format/layout/content.js";
import { encodeDictionaries } from "./encode-dictionaries.js";
import { encodeChains, encodeNames } from "./encode-names.js";
import { encodePlaces, type PlaceEntry } from "./encode-places.js";
import { encodePlain } from "./encode-plain.js";
import { encodeZones } from "./encode-zones.js";
import { DEFAULT_BLOCK_LAYOUT, encodeShowtimes, type BlockLayout } from "./encode-showtimes.js";
import {
  BODIES_FILE,
  BODY_INDEX_FILE,
  INDEX_FILE,
  MANIFEST_FILE,
  RECORDS_FILE,
} from "../../api/_core/format/primitives/files.js";
import { encodeManifest, type DataFileFacts, type Manifest } from "../../api/_core/format/layout/manifest.js";
import { PagedFileWriter } from "../../api/_core/format/primitives/paged-file.js";
import { StoredBodyWriter } from "./stored-body-writer.js";

/** Where the files go: the build's output writer (staged, then swapped in whole). */
export interface SnapshotOutput {
  write(relativePath: string, bytes: Buffer): void;
  openAppend(relativePath: string): { append(bytes: Buffer): void; close(): void };
}

/** Writes index.pages (the places among its sections) and records.blocks; returns what the manifest has of them. */
export function writeLists(
  output: SnapshotOutput,
  content: SnapshotContent,
  places: readonly PlaceEntry[],
  layout: BlockLayout = DEFAULT_BLOCK_LAYOUT,
) {
  const dictionaries = encodeDictionaries(content);
  const records = new BlockFileWriter(output.openAppend(RECORDS_FILE));
  const showtimeSections = encodeShowtimes(content, dictionaries.showtimes, records, layout);
  const recordsFacts = records.finish();
  const index = new PagedFileWriter(output.openAppend(INDEX_FILE));
  for (const [name, bytes] of dictionaries.sections) index.add(name, bytes);
  for (const [name, bytes] of showtimeSections) index.add(name, bytes);
  for (const [name, bytes] of encodePlain("cinemas", content.cinemas, dictionaries.cinemas)) index.add(name, bytes);
  for (const [name, bytes] of encodePlain("films", content.films, dictionaries.films)) index.add(name, bytes);
  for (const [name, bytes] of encodePlain("attributes", content.attributes)) index.add(name, bytes);
  for (const [name, bytes] of encodeZones(content)) index.add(name, bytes);
  for (const [name, bytes] of encodeNames("films", content.films)) index.add(name, bytes);
  for (const [name, bytes] of encodeNames("cinemas", content.cinemas)) index.add(name, bytes);
  for (const [name, bytes] of encodeChains(content.cinemas)) index.add(name, bytes);
  for (const [name, bytes] of encodePlaces(places)) index.add(name, bytes);
  const indexFacts = index.finish();
  return { [INDEX_FILE]: indexFacts, [RECORDS_FILE]: recordsFacts } as Record<
    typeof INDEX_FILE | typeof RECORDS_FILE,
    DataFileFacts
  >;
}

/** Opens bodies.blocks and bodies.index for the stored bodies. */
export function openStoredBodies(output: SnapshotOutput): StoredBodyWriter {
  return new StoredBodyWriter(
    new BlockFileWriter(output.openAppend(BODIES_FILE)),
    new PagedFileWriter(output.openAppend(BODY_INDEX_FILE)),
  );
}

/** Writes the manifest: last, since its presence marks a complete snapshot. */
export function writeManifest(output: SnapshotOutput, manifest: Manifest): void {
  output.write(MANIFEST_FILE, encodeManifest(manifest));
}
