/**
 * The checks of an output split per market (market-functions.ts; decision: markets, deployed per
 * market): each market's function is built, bundles its own snapshot whole and no other market's,
 * fits Vercel's limit (the check names the function), and receives the internal path of its
 * snapshot id; the first function bundles no market's snapshot. Never throws for a broken output.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { IndexedMarket } from "../../api/_core/format/layout/markets-index.js";
import { readMarketsIndex } from "../../api/_core/format/read/markets-folder.js";
import { MARKETS_INDEX_FILE } from "../../api/_core/format/primitives/files.js";
import { checkSize } from "./output-bundle.js";
import { type CheckFn, FUNCTION_DIR, functionFiles, listFiles, type Route, routeOf } from "./output-layout.js";
import { marketFunctionDir, marketFunctionPath } from "./market-functions.js";

/** At most this many files named in a detail. */
const NAMED = 5;

/** Bundled names of snapshot files of markets other than `id` (every market's when undefined). */
function othersFiles(files: Map<string, string>, markets: IndexedMarket[], id: string | undefined): string[] {
  const others = markets.filter((m) => m.id !== id).map((m) => `snapshot/${m.id}/`);
  return [...files.keys()].filter((name) => others.some((prefix) => name.startsWith(prefix))).sort();
}

/** The files of `market`'s snapshot, and the index, missing from its function or of another size there. */
function missingFiles(files: Map<string, string>, snapshotDir: string, id: string): string[] {
  const expected = [MARKETS_INDEX_FILE, ...listFiles(path.join(snapshotDir, id)).map((f) => `${id}/${f}`)];
  return expected.filter((f) => {
    const bundled = files.get(`snapshot/${f}`);
    return !bundled || !existsSync(bundled) || statSync(bundled).size !== statSync(path.join(snapshotDir, f)).size;
  });
}

const named = (names: string[]) =>
  `${names.slice(0, NAMED).join(", ")}${names.length > NAMED ? `, and ${names.length - NAMED} more` : ""}`;

function checkMarket(
  outputDir: string,
  projectDir: string,
  snapshotDir: string,
  routes: Route[],
  market: IndexedMarket,
  markets: IndexedMarket[],
  check: CheckFn,
): number {
  const func = marketFunctionDir(market.id);
  const built = existsSync(path.join(outputDir, func, ".vc-config.json"));
  check(`market ${market.id}: its function is built`, built, func);
  if (!built) return 0;
  const files = functionFiles(outputDir, projectDir, func);
  const missing = missingFiles(files, snapshotDir, market.id);
  check(
    `market ${market.id}: its function bundles its whole snapshot and the markets index`,
    missing.length === 0,
    missing.length
      ? `missing or different: ${named(missing)}`
      : `snapshot/${market.id}, snapshot/${MARKETS_INDEX_FILE}`,
  );
  const others = othersFiles(files, markets, market.id);
  check(`market ${market.id}: its function bundles no other market's snapshot`, others.length === 0, named(others));
  checkSize(files, check, `market ${market.id}: its function (${func}) is under 250 MB`);
  const internal = `/_c/${market.snapshotId}/gzip/v1/films`;
  const dest = routeOf(routes, internal);
  check(
    `market ${market.id}: the internal path of its snapshot routes to its function`,
    dest === marketFunctionPath(market.id),
    `${internal} → ${dest ?? "nothing"}`,
  );
  return listFiles(path.join(snapshotDir, market.id)).length - missing.filter((f) => f !== MARKETS_INDEX_FILE).length;
}

/**
 * Every market's checks, then the first function's: it bundles no market's snapshot, so it stays
 * small. Returns how many of the markets' snapshot files their functions bundle.
 */
export function checkMarketFunctions(
  outputDir: string,
  projectDir: string,
  snapshotDir: string,
  routes: Route[],
  check: CheckFn,
): number {
  let markets: IndexedMarket[];
  try {
    markets = readMarketsIndex(snapshotDir).markets;
  } catch (error) {
    check("the snapshot's markets index can be read", false, String((error as Error).message));
    return 0;
  }
  let bundled = 0;
  for (const market of markets)
    bundled += checkMarket(outputDir, projectDir, snapshotDir, routes, market, markets, check);
  const first = existsSync(path.join(outputDir, FUNCTION_DIR, ".vc-config.json"))
    ? functionFiles(outputDir, projectDir)
    : new Map<string, string>();
  const others = othersFiles(first, markets, undefined);
  check(
    "the function api/v1 bundles no market's snapshot",
    others.length === 0,
    others.length ? named(others) : "none",
  );
  return bundled;
}
