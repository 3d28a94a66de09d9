/**
 * manifest.json: what a snapshot is (format, identity, counts, freshness) and which data files
 * make it, with their sizes and digests. Written last by the build, so its presence marks a
 * complete snapshot; one type, one parser, one writer. The parser accepts nothing else: a
 * manifest of the wrong shape is a broken snapshot (503), never a crash.
 */
import { checkDateTime } from "../primitives/date-time.js";
import { checksumOf } from "../primitives/checksum.js";
import type { HistoryFacts } from "./history.js";
import { checkMarkets, type Market } from "./market-rules.js";
import { SnapshotError } from "../primitives/errors.js";
import { DATA_FILES, MANIFEST_FILE, type DataFile } from "../primitives/files.js";

export const SNAPSHOT_FORMAT = 4;
export const LIST_RESOURCES = ["cinemas", "films", "showtimes", "attributes"] as const;
export type ListResource = (typeof LIST_RESOURCES)[number];

export interface Freshness {
  observedAt: string;
  sourceUpdatedAt?: string;
}

export interface DataFileFacts {
  bytes: number;
  /** The file footer's digest of its block checksums. */
  digest: number;
}

export interface Manifest {
  format: number;
  /** A digest of every byte of the snapshot: equal ids, equal snapshots. */
  snapshotId: string;
  defaultLimit: number;
  counts: Record<ListResource, number>;
  /** Freshness over every cinema, film and showtime: what responses without provenance carry. */
  freshness: Freshness;
  files: Record<DataFile, DataFileFacts>;
  /** The earliest kept start, when the build left out earlier showtimes (decision: upcoming showtimes). */
  dropBefore?: string;
  /**
   * The instant the build was asked to drop before (or carried), in UTC: what the next build with
   * this snapshot as `--previous` carries. Absent from snapshots built before it was recorded.
   */
  dropBeforeRequested?: string;
  /** The changes history this snapshot carries: its chain and generation (layout/history.ts). */
  history: HistoryFacts;
  /**
   * The market this snapshot is, in a multi-market folder (decision: markets); absent from the
   * snapshot of a build without markets, which has no market id.
   */
  market?: Market;
}

/** The manifest's text: pretty JSON with a checksum of everything else in it. */
export function encodeManifest(manifest: Manifest): Buffer {
  const body = JSON.stringify(manifest);
  return Buffer.from(`${JSON.stringify({ ...manifest, checksum: checksumOf(Buffer.from(body)) }, null, 2)}\n`);
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const isOptionalDateTime = (value: unknown) =>
  value === undefined || (typeof value === "string" && checkDateTime(value).ok);

function checkFreshness(value: unknown): value is Freshness {
  if (!isObject(value) || typeof value.observedAt !== "string") return false;
  return value.sourceUpdatedAt === undefined || typeof value.sourceUpdatedAt === "string";
}

/** Parses manifest text; throws SnapshotError saying what is wrong, including an older format. */
export function parseManifest(text: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SnapshotError(MANIFEST_FILE, "is not JSON");
  }
  if (!isObject(value)) throw new SnapshotError(MANIFEST_FILE, "is not a JSON object");
  if (value.format !== SNAPSHOT_FORMAT) {
    throw new SnapshotError(
      MANIFEST_FILE,
      `is snapshot format ${JSON.stringify(value.format)}, this server reads format ${SNAPSHOT_FORMAT}: ` +
        "rebuild the snapshot (npm run build)",
    );
  }
  const { checksum, ...rest } = value;
  if (checksum !== checksumOf(Buffer.from(JSON.stringify(rest))))
    throw new SnapshotError(MANIFEST_FILE, "fails its checksum");
  const counts = rest.counts;
  const files = rest.files;
  const wellFormed =
    typeof rest.snapshotId === "string" &&
    /^[0-9a-f]{32}$/.test(rest.snapshotId) &&
    isCount(rest.defaultLimit) &&
    (rest.defaultLimit as number) > 0 &&
    isObject(counts) &&
    LIST_RESOURCES.every((r) => isCount(counts[r])) &&
    checkFreshness(rest.freshness) &&
    isObject(files) &&
    DATA_FILES.every((f) => isObject(files[f]) && isCount(files[f].bytes) && isCount(files[f].digest)) &&
    isOptionalDateTime(rest.dropBefore) &&
    isOptionalDateTime(rest.dropBeforeRequested) &&
    isObject(rest.history) &&
    typeof rest.history.id === "string" &&
    /^[0-9a-f]{32}$/.test(rest.history.id) &&
    isCount(rest.history.generation) &&
    (rest.market === undefined || checkMarkets([rest.market]).length === 0);
  if (!wellFormed) throw new SnapshotError(MANIFEST_FILE, "has the wrong shape");
  return rest as unknown as Manifest;
}
