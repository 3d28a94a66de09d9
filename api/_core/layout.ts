/**
 * The snapshot's file layout, owned here alone: the build writes through these functions and
 * the request core reads through them, so the two cannot drift.
 *
 * Ids come from data and may hold anything (`/`, `..`, any Unicode, case-only differences),
 * so they never appear in a path: data-keyed values (bodies, views) live in keyed packs under
 * a 160-bit SHA-256 of their key, which is injective in practice. The few paths there are
 * are fixed names, and every one is still checked to stay inside the snapshot.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { KEY_BYTES } from "./keyed-pack.js";

export const SNAPSHOT_FORMAT = 2;
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

/** A data key as a fixed-width pack key: SHA-256 of its canonical JSON, cut to the pack's key size. */
function packKey(parts: unknown[]): Buffer {
  return createHash("sha256").update(JSON.stringify(parts)).digest().subarray(0, KEY_BYTES);
}

/** The two files of a keyed pack (keyed-pack.ts). */
export interface KeyedPackFiles {
  data: string;
  index: string;
}

/** Every precomputed response body: an entity tag, then the gzip of the body (body-file.ts). */
export const BODY_PACK: KeyedPackFiles = { data: "bodies/pack.bin", index: "bodies/index.bin" };
/** Every filtered showtime view: the list positions it selects, as uint32. */
export const VIEW_PACK: KeyedPackFiles = { data: "views/pack.bin", index: "views/index.bin" };

/** Key of a precomputed response body in BODY_PACK. */
export function bodyKeyOf(key: BodyKey): Buffer {
  if (key.kind === "one") return packKey(["one", key.resource, key.id]);
  const { cinemaId = null, filmId = null } = key.filters;
  return packKey(["page", key.resource, cinemaId, filmId, key.after]);
}

/** Key of a filtered showtime view in VIEW_PACK. */
export function viewKeyOf(filters: ViewFilters): Buffer {
  return packKey(["view", filters.cinemaId ?? null, filters.filmId ?? null]);
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
