/**
 * markets.json at the top of a multi-market folder (decision: markets): the markets it holds, each a
 * complete snapshot in the folder named by its id, with the snapshot id that snapshot's manifest has.
 * Written last by the build, so its presence marks a complete folder; one type, one parser, one
 * writer, as the manifest's. The parser accepts nothing else: a wrong index is a broken folder
 * (503), never a crash.
 */
import { createHash } from "node:crypto";
import { checksumOf } from "../primitives/checksum.js";
import { SnapshotError } from "../primitives/errors.js";
import { MARKETS_INDEX_FILE } from "../primitives/files.js";
import { checkMarkets, type Market } from "./market-rules.js";

export const MARKETS_INDEX_FORMAT = 1;

export interface IndexedMarket extends Market {
  /** The manifest's snapshotId of the market's snapshot (`<id>/manifest.json`). */
  snapshotId: string;
}

export interface MarketsIndex {
  format: number;
  /** In the order the data folder's markets.json lists them. */
  markets: IndexedMarket[];
}

/** The index's text: pretty JSON with a checksum of everything else in it, as the manifest's. */
export function encodeMarketsIndex(index: MarketsIndex): Buffer {
  const body = JSON.stringify(index);
  return Buffer.from(`${JSON.stringify({ ...index, checksum: checksumOf(Buffer.from(body)) }, null, 2)}\n`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const isSnapshotId = (value: unknown) => typeof value === "string" && /^[0-9a-f]{32}$/.test(value);

/**
 * The id of a multi-market folder as a whole, in a snapshot id's form (32 hex digits): a digest of
 * each market's id and snapshot id in the index's order, so any market rebuilt, added or removed
 * changes it. A release names the folder it deploys by it (RELEASE_SNAPSHOT_ID).
 */
export function marketsIndexId(index: MarketsIndex): string {
  const lines = index.markets.map((market) => `${market.id} ${market.snapshotId}\n`).join("");
  return createHash("sha256").update(lines, "utf8").digest("hex").slice(0, 32);
}

/** Parses the index's text; throws SnapshotError saying what is wrong. */
export function parseMarketsIndex(text: string): MarketsIndex {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SnapshotError(MARKETS_INDEX_FILE, "is not JSON");
  }
  if (!isObject(value)) throw new SnapshotError(MARKETS_INDEX_FILE, "is not a JSON object");
  if (value.format !== MARKETS_INDEX_FORMAT)
    throw new SnapshotError(
      MARKETS_INDEX_FILE,
      `is format ${JSON.stringify(value.format)}, this server reads format ${MARKETS_INDEX_FORMAT}: ` +
        "rebuild the snapshot (npm run build)",
    );
  const { checksum, ...rest } = value;
  if (checksum !== checksumOf(Buffer.from(JSON.stringify(rest))))
    throw new SnapshotError(MARKETS_INDEX_FILE, "fails its checksum");
  if (Object.keys(rest).length !== 2) throw new SnapshotError(MARKETS_INDEX_FILE, "has the wrong shape");
  const [issue] = checkMarkets(rest.markets, ["snapshotId"]);
  if (issue) {
    const where =
      issue.index === undefined ? "markets" : `markets[${issue.index}]${issue.path ? "." : ""}${issue.path}`;
    throw new SnapshotError(MARKETS_INDEX_FILE, `${where} ${issue.message}`);
  }
  const markets = rest.markets as Array<Record<string, unknown>>;
  const at = markets.findIndex((market) => !isSnapshotId(market.snapshotId));
  if (at !== -1) throw new SnapshotError(MARKETS_INDEX_FILE, `markets[${at}].snapshotId is not a snapshot id`);
  return rest as unknown as MarketsIndex;
}
