/**
 * One function per market (decision: markets, deployed per market). `vercel build` makes the one
 * function vercel.json names, bundling the whole snapshot folder; vercel.json's `functions` are
 * static, so the split is made after the build, in the Build Output API: the function's folder is
 * copied once per market holding only that market's snapshot (and the markets index), the first
 * function keeps no market's snapshot, and config.json sends the internal path of a market's
 * snapshot id (`/_c/<snapshotId>/...`) to that market's function. A single-market output is left
 * exactly as the build wrote it.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { IndexedMarket } from "../../api/_core/format/layout/markets-index.js";
import { isMarketsFolder, readMarketsIndex } from "../../api/_core/format/read/markets-folder.js";
import { MARKETS_INDEX_FILE } from "../../api/_core/format/primitives/files.js";
import { FUNCTION_DIR, MARKET_FUNCTIONS_DIR, type Route } from "./output-layout.js";

/** Where the function of market `id` is in the output, and the path config.json's routes name it by. */
export function marketFunctionDir(id: string): string {
  return `${MARKET_FUNCTIONS_DIR}/${id}.func`;
}
export function marketFunctionPath(id: string): string {
  return `/api/markets/${id}`;
}

/** The market functions an output holds: each one's folder in it, by the path routes name it by (none unsplit). */
export function marketFunctionsIn(outputDir: string): Record<string, string> {
  const dir = path.join(outputDir, MARKET_FUNCTIONS_DIR);
  if (!existsSync(dir)) return {};
  const ids = readdirSync(dir)
    .filter((name) => name.endsWith(".func"))
    .map((name) => name.slice(0, -".func".length));
  return Object.fromEntries(ids.sort().map((id) => [marketFunctionPath(id), marketFunctionDir(id)]));
}

/** The route sending the internal path of a market's snapshot id (any coding, any API path) to its function. */
export function marketRoute(market: IndexedMarket): Route & { check: boolean } {
  return { src: `^/_c/${market.snapshotId}(?:/(.*))?$`, dest: marketFunctionPath(market.id), check: true };
}

/**
 * Whether a file the function bundles (its name in the bundle, "/" separators) belongs in the function
 * of market `id` (undefined: the first function, which holds no market's snapshot). Everything not
 * under snapshot/ belongs to every function: the code, its packages, the gateway secret.
 */
export function bundledIn(bundled: string, id: string | undefined): boolean {
  if (bundled !== "snapshot" && !bundled.startsWith("snapshot/")) return true;
  if (bundled === "snapshot" || bundled === `snapshot/${MARKETS_INDEX_FILE}`) return true;
  return id !== undefined && (bundled === `snapshot/${id}` || bundled.startsWith(`snapshot/${id}/`));
}

interface FunctionConfig {
  filePathMap?: Record<string, string>;
  [key: string]: unknown;
}

/** Rewrites a function's .vc-config.json so it maps from the project only the files that belong in it. */
function keepMapped(funcDir: string, id: string | undefined): void {
  const file = path.join(funcDir, ".vc-config.json");
  const config = JSON.parse(readFileSync(file, "utf8")) as FunctionConfig;
  if (!config.filePathMap) return;
  config.filePathMap = Object.fromEntries(Object.entries(config.filePathMap).filter(([name]) => bundledIn(name, id)));
  writeFileSync(file, JSON.stringify(config));
}

/** Every market's snapshot written into the first function's folder, removed. */
function removeMarkets(funcDir: string, markets: IndexedMarket[]): void {
  for (const market of markets) rmSync(path.join(funcDir, "snapshot", market.id), { recursive: true, force: true });
}

/** config.json with each market's route first after the filesystem phase (before the first function's /_c route). */
function routeMarkets(outputDir: string, markets: IndexedMarket[]): void {
  const file = path.join(outputDir, "config.json");
  const config = JSON.parse(readFileSync(file, "utf8")) as { routes?: Route[] };
  const routes = config.routes ?? [];
  const at = routes.findIndex((route) => route.handle === "filesystem") + 1;
  routes.splice(at, 0, ...markets.map(marketRoute));
  writeFileSync(file, JSON.stringify({ ...config, routes }));
}

/**
 * Splits the build's function by market when `snapshotDir` (the snapshot the build bundled) is a
 * multi-market folder; returns the markets split, none for a single-market snapshot (nothing changed).
 * Once only, right after `vercel build`: the first function no longer holds the markets' snapshots
 * after it, so an output already split is refused rather than split into empty functions.
 */
export function splitFunctionByMarket(outputDir: string, snapshotDir: string): IndexedMarket[] {
  if (!isMarketsFolder(snapshotDir)) return [];
  const { markets } = readMarketsIndex(snapshotDir);
  const source = path.join(outputDir, FUNCTION_DIR);
  if (!existsSync(source)) throw new Error(`${FUNCTION_DIR} is not in ${outputDir}: run vercel build first`);
  const split = markets.filter((market) => existsSync(path.join(outputDir, marketFunctionDir(market.id))));
  if (split.length)
    throw new Error(`${marketFunctionDir(split[0]!.id)} exists: this output is already split by market`);
  for (const market of markets) {
    const target = path.join(outputDir, marketFunctionDir(market.id));
    const inBundle = (file: string) => path.relative(source, file).split(path.sep).join("/");
    // A market's files only: copying the whole snapshot first would need every market's size on disk again.
    cpSync(source, target, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (file) => file === source || bundledIn(inBundle(file), market.id),
    });
    keepMapped(target, market.id);
  }
  removeMarkets(source, markets);
  keepMapped(source, undefined);
  routeMarkets(outputDir, markets);
  return markets;
}
