/**
 * The snapshot's file layout, owned here alone: the build writes through these functions and
 * the request core reads through them, so the two cannot drift.
 *
 * Ids come from data and may hold anything (`/`, `..`, any Unicode, case-only differences),
 * so they never appear in a path: every data-keyed file is named by a SHA-256 of its key,
 * which is injective in practice, lowercase hex (safe on case-insensitive disks) and short.
 */
import { createHash } from "node:crypto";
import path from "node:path";

export const SNAPSHOT_FORMAT = 1;
export const MANIFEST_FILE = "manifest.json";
export const LIST_RESOURCES = ["cinemas", "films", "showtimes", "attributes"] as const;
export type ListResource = (typeof LIST_RESOURCES)[number];
export const ONE_RESOURCES = ["cinemas", "films"] as const;
export type OneResource = (typeof ONE_RESOURCES)[number];

/** Showtime list filters that select a precomputed view (startsAfter is not one: it is continuous). */
export interface ViewFilters {
  cinemaId?: string;
  filmId?: string;
}

/** What a precomputed response body answers. `after` is the sort key of the record before the page. */
export type BodyKey =
  | { kind: "page"; resource: ListResource; filters: ViewFilters; after: readonly string[] | null }
  | { kind: "one"; resource: OneResource; id: string };

/** The files of one resource's record pack, in list order. */
export interface PackFiles {
  records: string;
  recordsIndex: string;
  meta: string;
  metaIndex: string;
}

function hashName(parts: unknown[]): string {
  const digest = createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 40);
  // Two-character shards keep directories small at millions of files.
  return `${digest.slice(0, 2)}/${digest.slice(2)}`;
}

/** Relative path of a precomputed response body. */
export function bodyFile(key: BodyKey): string {
  if (key.kind === "one") return `bodies/${hashName(["one", key.resource, key.id])}`;
  const { cinemaId = null, filmId = null } = key.filters;
  return `bodies/${hashName(["page", key.resource, cinemaId, filmId, key.after])}`;
}

/** Relative path of a filtered showtime view: the list positions it selects, as uint32. */
export function viewFile(filters: ViewFilters): string {
  return `views/${hashName(["view", filters.cinemaId ?? null, filters.filmId ?? null])}`;
}

/** Relative paths of a resource's record pack. */
export function packFiles(resource: ListResource): PackFiles {
  const dir = `lists/${resource}`;
  return {
    records: `${dir}/records.bin`,
    recordsIndex: `${dir}/records.idx`,
    meta: `${dir}/meta.bin`,
    metaIndex: `${dir}/meta.idx`,
  };
}

/** Joins a relative layout path to the snapshot root, refusing anything that would leave it. */
export function resolveInside(root: string, relative: string): string {
  const base = path.resolve(root);
  const full = path.resolve(base, relative);
  // The separator matters: "/srv/snap-evil/x" starts with "/srv/snap" but is outside it.
  if (full === base || !full.startsWith(base + path.sep)) {
    throw new Error(`path escapes the snapshot: ${relative}`);
  }
  return full;
}
