/**
 * The market `/v1` and `/mcp` serve in a multi-market folder (decision: markets): DEFAULT_MARKET, or
 * `--default-market` for npm run serve. Checked when the server starts, against the folder it serves,
 * so a typo stops it with the markets named rather than serving 404s.
 */
import { existsSync } from "node:fs";
import { marketIdProblem } from "../../api/_core/format/layout/market-rules.js";
import { MANIFEST_FILE, resolveInside } from "../../api/_core/format/primitives/files.js";
import { isMarketsFolder, readMarketsIndex } from "../../api/_core/format/read/markets-folder.js";

/**
 * Why `market` cannot be the default of the folder in `dir`, or undefined: not a market id, not a
 * market of its index, or a folder that holds one snapshot (no markets). A folder not built yet, or
 * whose index cannot be read, is let be: its requests say what is wrong.
 */
export function defaultMarketProblem(dir: string, market: string | undefined): string | undefined {
  if (market === undefined) return undefined;
  const malformed = marketIdProblem(market);
  if (malformed) return `the default market ${malformed}`;
  if (isMarketsFolder(dir)) {
    let ids: string[];
    try {
      ids = readMarketsIndex(dir).markets.map((m) => m.id);
    } catch {
      return undefined;
    }
    if (ids.includes(market)) return undefined;
    return (
      `the default market ${JSON.stringify(market)} is not a market of the snapshot in ${dir}: ` +
      `its markets are ${ids.join(", ")}`
    );
  }
  if (existsSync(resolveInside(dir, MANIFEST_FILE)))
    return (
      `the default market ${JSON.stringify(market)} names a market, but the snapshot in ${dir} has none ` +
      "(it was built without markets.json): leave the default market unset"
    );
  return undefined;
}
