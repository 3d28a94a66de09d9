/**
 * Each market's snapshot is the snapshot of its own data (decision: markets): for random datasets,
 * market splits and drop-before instants, every market of a multi-market build is byte for byte
 * the snapshot a build without markets writes from that market's records alone (its cinemas, their
 * showtimes, the films showing there, every attribute), apart from the manifest's `market` and the
 * snapshot id it changes, and the cursors of its stored pages, which bind the market's id. So a
 * market is a valid snapshot by the same format and the same checks; and served, each market answers
 * every list and get-one, and the changes feed, as a deployment of that build alone does, byte for
 * byte but for its id in cursors and sync tokens.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Manifest } from "../api/_core/format/layout/manifest.js";
import type { Market } from "../api/_core/format/layout/market-rules.js";
import { staticAccess } from "../api/_core/gate/access.js";
import { createHandler } from "../api/_core/handle-request.js";
import { BODIES_FILE, BODY_INDEX_FILE, DATA_FILES } from "../api/_core/format/primitives/files.js";
import { MarketsSource } from "../api/_core/format/read/markets-source.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { instantKeyOf } from "../api/_core/format/primitives/date-time.js";
import { readManifest } from "../api/_core/format/read/snapshot.js";
import { type BuildOptions, runBuild } from "../build/run-build.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { formatInstant, generateDataset, SHOWS_FROM, writeDataset, type Dataset } from "./helpers/dataset.js";
import { MARKET_KEYS, MARKETS_NOW, walkApi, withoutMarketIds, writeMarketAccess } from "./helpers/market-servers.js";
import { marketDataset, spreadCountries, writeMarkets } from "./helpers/markets.js";

const COUNTRIES = ["GB", "DE", "FR", "AT", "IE", "ES"];

let work: string;
let accessFile: string;
beforeAll(() => {
  work = makeTempDir("markets-property");
  accessFile = writeMarketAccess(work);
});
afterAll(() => removeDir(work));

let runs = 0;
async function build(dataset: Dataset, out: string, markets: Market[] | undefined, options: Partial<BuildOptions>) {
  const dataDir = `${out}-data`;
  writeDataset(dataDir, dataset);
  if (markets) writeMarkets(dataDir, markets);
  const result = await runBuild({ dataDir, output: createDiskWriter(out), gzipLevel: 1, gzipWorkers: 0, ...options });
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
}

/**
 * The manifest without what the market changes: its `market`, the snapshot id the market is folded
 * into, and the stored bodies, whose pages' cursors bind the market (compared as served, below).
 */
function unmarked(dir: string): Omit<Manifest, "market" | "snapshotId"> {
  const { market: _, snapshotId: __, files, ...rest } = readManifest(dir);
  const { [BODIES_FILE]: ___, [BODY_INDEX_FILE]: ____, ...unbound } = files;
  return { ...rest, files: unbound as Manifest["files"] };
}

/** The data files no market id reaches. */
const UNBOUND_FILES = DATA_FILES.filter((file) => file !== BODIES_FILE && file !== BODY_INDEX_FILE);

/** A request core in process over `snapshots` (or a multi-market folder's `markets`), for `walkApi`. */
function served(options: { snapshots: string; markets?: string }, prefix = "") {
  const handle = createHandler({
    snapshots: new SnapshotSource(options.snapshots),
    folder: options.markets ? { markets: new MarketsSource(options.markets) } : undefined,
    access: staticAccess(readFileSync(accessFile, "utf8")),
    now: () => MARKETS_NOW,
  });
  return async (target: string) => {
    const answer = await handle({
      method: "GET",
      url: `${prefix}${target}`,
      headers: { authorization: `Bearer ${MARKET_KEYS.every}` },
    });
    return { status: answer.status, text: Buffer.from(answer.body).toString("utf8") };
  };
}

const comparable = ([target, status, text]: [string, number, string]) =>
  [withoutMarketIds(target), status, withoutMarketIds(text)] as const;

/** A split of every country into 1..4 markets, some of which may hold no cinema. */
const splits = fc
  .array(fc.integer({ min: 0, max: 3 }), { minLength: COUNTRIES.length, maxLength: COUNTRIES.length })
  .map((groups) =>
    [...new Set(groups)].map((group, i) => ({
      id: `m${i}-${group}`,
      name: `Market ${i}`,
      countries: COUNTRIES.filter((_, c) => groups[c] === group),
    })),
  );

test("every market's snapshot is the snapshot of its own data but for its market", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 1e6 }),
      fc.integer({ min: 0, max: 90 }),
      fc.shuffledSubarray(COUNTRIES, { minLength: 1, maxLength: 4 }),
      splits,
      fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
      async (seed, showtimes, used, markets, dropAt) => {
        const dataset = spreadCountries(generateDataset({ seed, showtimes, cinemas: 2, films: 2 }), used);
        const text = dropAt === undefined ? undefined : formatInstant(SHOWS_FROM + dropAt * 900, "", 60);
        const options = text === undefined ? {} : { dropBefore: { text, key: instantKeyOf(text) } };
        const run = path.join(work, `run-${runs++}`);
        await build(dataset, path.join(run, "markets"), markets, options);
        for (const market of markets) {
          const alone = path.join(run, `alone-${market.id}`);
          await build(marketDataset(dataset, market), alone, undefined, options);
          const within = path.join(run, "markets", market.id);
          for (const file of UNBOUND_FILES)
            expect(readFileSync(path.join(within, file)), `${market.id} ${file}`).toEqual(
              readFileSync(path.join(alone, file)),
            );
          expect(unmarked(within)).toEqual(unmarked(alone));
          expect(readManifest(within).market).toEqual(market);
          expect(readManifest(within).snapshotId).not.toBe(readManifest(alone).snapshotId);
          const asMarket = await walkApi(
            served({ snapshots: alone, markets: path.join(run, "markets") }, `/${market.id}`),
          );
          const byItself = await walkApi(served({ snapshots: alone }));
          expect(asMarket.map(comparable), market.id).toEqual(byItself.map(comparable));
        }
        removeDir(run);
      },
    ),
    { numRuns: 10 },
  );
});
