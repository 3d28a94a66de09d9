/**
 * The data folder's markets.json against the rules of a market (decision: markets;
 * api/_core/format/layout/market-rules.ts): every rule broken is a problem pointing at the market
 * and field, and the build stops on any of them.
 */
import { checkMarkets, type Market } from "../../api/_core/format/layout/market-rules.js";
import type { MarketsSource } from "../load/markets-source.js";
import type { Problem } from "../report/problems.js";

/** The markets, fields in id, name, countries order; undefined without markets.json or when it breaks rules. */
export function validateMarkets(source: MarketsSource | undefined, problems: Problem[]): Market[] | undefined {
  if (!source) return undefined;
  const issues = checkMarkets(source.value);
  for (const { code, index, path, message } of issues) problems.push({ code, file: source.file, index, path, message });
  if (issues.length > 0) return undefined;
  // Copied field by field: the manifests carry each market in this order, whatever order the file gave.
  return (source.value as Market[]).map(({ id, name, countries }) => ({ id, name, countries: [...countries] }));
}
