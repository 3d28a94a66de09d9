/**
 * `org set --markets`: the markets an entitlement covers (decision: markets), as ids by the rule every
 * market's id follows, or `all` for every market (the entitlement then names none, as before markets).
 */
import { MARKET_BOUNDS, MARKET_ID_PATTERN, RESERVED_MARKET_IDS } from "../../api/_core/format/layout/market-rules.js";

/** Every market: written as an entitlement without `markets`. */
export const EVERY_MARKET = "all";

export type MarketsOption = string[] | typeof EVERY_MARKET;

/** The ids of `--markets gb,dach` in the order given, or "all"; else what is wrong, for a usage error. */
export function parseMarketsOption(value: string): { markets: MarketsOption } | { problem: string } {
  const ids = value.split(",");
  if (ids.includes(EVERY_MARKET))
    return ids.length === 1
      ? { markets: EVERY_MARKET }
      : { problem: "--markets all means every market; name no market beside it" };
  const most = MARKET_BOUNDS.markets[1];
  if (ids.length > most) return { problem: `--markets names ${ids.length} markets; a deployment has at most ${most}` };
  const seen = new Set<string>();
  for (const id of ids) {
    const shown = JSON.stringify(id.slice(0, 40));
    if (!MARKET_ID_PATTERN.test(id))
      return {
        problem:
          `--markets takes market ids separated by commas (2..32 lowercase letters, digits or "-"), ` +
          `or all; ${shown} is not one`,
      };
    if (RESERVED_MARKET_IDS.includes(id))
      return { problem: `--markets: ${shown} can be no market's id (the server answers /${id} itself)` };
    if (seen.has(id)) return { problem: `--markets names ${shown} twice` };
    seen.add(id);
  }
  return { markets: ids };
}
