/**
 * markets.json at the top of a multi-market folder (decision: markets): the markets it holds, each a
 * complete snapshot in the folder named by its id, with the snapshot id that snapshot's manifest has.
 * Since format 2 it keeps what each market's snapshot holds (market-summary.ts), what `GET /markets`
 * lists, so whatever holds the index lists every market. Written last by the build, so its presence
 * marks a complete folder; one type, one parser, one writer, as the manifest's. The parser accepts
 * nothing else: a wrong index is a broken folder (503), never a crash.
 */
import { createHash } from "node:crypto";
import { checksumOf } from "../primitives/checksum.js";
import { SnapshotError } from "../primitives/errors.js";
import { MARKETS_INDEX_FILE } from "../primitives/files.js";
import { checkMarkets, type Market } from "./market-rules.js";
import { type MarketSummary, summaryProblem } from "./market-summary.js";

export const MARKETS_INDEX_FORMAT = 2;
/**
 * The format before the summaries: still read, so a server or a build's `--previous` takes a folder
 * built before them (its markets are served and carry their history); only the list of markets needs
 * a rebuild (requireSummary).
 */
const FORMAT_WITHOUT_SUMMARIES = 1;

export interface IndexedMarket extends Market {
  /** The manifest's snapshotId of the market's snapshot (`<id>/manifest.json`). */
  snapshotId: string;
  /** What that snapshot holds; absent from an index of format 1. */
  summary?: MarketSummary;
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
 * changes it. A release names the folder it deploys by it (RELEASE_SNAPSHOT_ID). The summaries need
 * no part in it: each is worked out from its market's snapshot, which the snapshot id names.
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
  if (value.format !== MARKETS_INDEX_FORMAT && value.format !== FORMAT_WITHOUT_SUMMARIES)
    throw new SnapshotError(
      MARKETS_INDEX_FILE,
      `is format ${JSON.stringify(value.format)}, this server reads format ${MARKETS_INDEX_FORMAT}: ` +
        "rebuild the snapshot (npm run build)",
    );
  const { checksum, ...rest } = value;
  if (checksum !== checksumOf(Buffer.from(JSON.stringify(rest))))
    throw new SnapshotError(MARKETS_INDEX_FILE, "fails its checksum");
  if (Object.keys(rest).length !== 2) throw new SnapshotError(MARKETS_INDEX_FILE, "has the wrong shape");
  const summarized = rest.format === MARKETS_INDEX_FORMAT;
  const [issue] = checkMarkets(rest.markets, summarized ? ["snapshotId", "summary"] : ["snapshotId"]);
  if (issue) {
    const where =
      issue.index === undefined ? "markets" : `markets[${issue.index}]${issue.path ? "." : ""}${issue.path}`;
    throw new SnapshotError(MARKETS_INDEX_FILE, `${where} ${issue.message}`);
  }
  const markets = rest.markets as Array<Record<string, unknown>>;
  const at = markets.findIndex((market) => !isSnapshotId(market.snapshotId));
  if (at !== -1) throw new SnapshotError(MARKETS_INDEX_FILE, `markets[${at}].snapshotId is not a snapshot id`);
  if (summarized) checkSummaries(markets);
  return rest as unknown as MarketsIndex;
}

function checkSummaries(markets: ReadonlyArray<Record<string, unknown>>): void {
  for (const [at, market] of markets.entries()) {
    const problem = summaryProblem(market.summary);
    if (!problem) continue;
    const where = `markets[${at}].summary${problem.path ? `.${problem.path}` : ""}`;
    throw new SnapshotError(MARKETS_INDEX_FILE, `${where} ${problem.message}`);
  }
}

/**
 * What a market's snapshot holds, as the index says it; throws SnapshotError (a 503) for an index of
 * format 1, which does not say it: never a list made up otherwise.
 */
export function requireSummary(market: IndexedMarket): MarketSummary {
  if (market.summary) return market.summary;
  throw new SnapshotError(
    MARKETS_INDEX_FILE,
    `is format ${FORMAT_WITHOUT_SUMMARIES}, which does not say what each market holds (GET /markets): ` +
      "rebuild the snapshot (npm run build)",
  );
}
