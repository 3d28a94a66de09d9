/**
 * The snapshot's file names, owned here alone. Ids come from data and may hold anything (`/`,
 * `..`, any Unicode), so no id ever becomes a path: the few paths there are are fixed names, and
 * each is still checked to stay inside the snapshot folder.
 */
import path from "node:path";

export const MANIFEST_FILE = "manifest.json";
/**
 * At the top of a multi-market folder, beside one snapshot folder per market (layout/markets-index.ts):
 * written last, so its presence marks a complete multi-market folder as the manifest marks a snapshot.
 */
export const MARKETS_INDEX_FILE = "markets.json";
/** Stored response bodies: every default-limit page of the four unfiltered lists, every get-one. */
export const BODIES_FILE = "bodies.blocks";
/** Where each stored body lies, by the key of what it answers: one section of checksummed pages. */
export const BODY_INDEX_FILE = "bodies.index";
/** Showtime records, clustered by cinema in list order, in compact blocks. */
export const RECORDS_FILE = "records.blocks";
/** Every index, dictionary, position list and small resource, as named sections of checksummed pages. */
export const INDEX_FILE = "index.pages";

/** The changes history carried from snapshot to snapshot (layout/history.ts). */
export const HISTORY_FILE = "history.pages";

export const DATA_FILES = [BODIES_FILE, BODY_INDEX_FILE, RECORDS_FILE, INDEX_FILE, HISTORY_FILE] as const;
export type DataFile = (typeof DATA_FILES)[number];

/** Joins a file name to the snapshot root, refusing anything that would leave it. */
export function resolveInside(root: string, relative: string): string {
  const base = path.resolve(root);
  const full = path.resolve(base, relative);
  // The separator matters: "/srv/snap-evil/x" starts with "/srv/snap" but is outside it.
  if (full === base || !full.startsWith(base + path.sep)) throw new Error(`path escapes the snapshot: ${relative}`);
  return full;
}
