/**
 * What a market's snapshot holds, as `GET /markets` lists it (decision: markets): its counts of
 * cinemas, films and showtimes, the first and last local day with a showtime, and its freshness.
 * The build works it out from each market's snapshot once written and keeps it in the folder's
 * index (markets-index.ts), so whatever holds the index lists the markets alike: the local server,
 * and on Vercel the gateway and each market's function, none of which holds every market.
 */
import { checkDate, checkDateTime } from "../primitives/date-time.js";
import type { Freshness } from "./manifest.js";

export interface MarketSummary {
  counts: { cinemas: number; films: number; showtimes: number };
  /** The first and last local date (YYYY-MM-DD) with a showtime; both null when it has none. */
  firstDate: string | null;
  lastDate: string | null;
  freshness: Freshness;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

const isDateTime = (value: unknown) => typeof value === "string" && checkDateTime(value).ok;

const hasOnly = (value: Record<string, unknown>, fields: readonly string[]) =>
  Object.keys(value).every((key) => fields.includes(key));

/** A problem of a summary: where in it (empty: the whole), and what is wrong there. */
export interface SummaryProblem {
  path: string;
  message: string;
}

const COUNTED = ["cinemas", "films", "showtimes"] as const;

function countsProblem(counts: unknown): SummaryProblem | undefined {
  if (!isObject(counts) || !hasOnly(counts, COUNTED)) return { path: "counts", message: "has the wrong shape" };
  const wrong = COUNTED.find((resource) => !isCount(counts[resource]));
  return wrong && { path: `counts.${wrong}`, message: "is not a count" };
}

function datesProblem(first: unknown, last: unknown): SummaryProblem | undefined {
  if (first === null && last === null) return undefined;
  for (const [path, date] of [
    ["firstDate", first],
    ["lastDate", last],
  ] as const)
    if (typeof date !== "string" || checkDate(date) !== undefined)
      return { path, message: "is not a date (YYYY-MM-DD)" };
  return (first as string) > (last as string) ? { path: "firstDate", message: "is after lastDate" } : undefined;
}

function freshnessProblem(freshness: unknown): SummaryProblem | undefined {
  const wellFormed =
    isObject(freshness) &&
    hasOnly(freshness, ["observedAt", "sourceUpdatedAt"]) &&
    isDateTime(freshness.observedAt) &&
    (freshness.sourceUpdatedAt === undefined || isDateTime(freshness.sourceUpdatedAt));
  return wellFormed ? undefined : { path: "freshness", message: "has the wrong shape" };
}

/** What is wrong with a summary read from the index; undefined when nothing is. */
export function summaryProblem(value: unknown): SummaryProblem | undefined {
  if (value === undefined) return { path: "", message: "is missing" };
  if (!isObject(value) || !hasOnly(value, ["counts", "firstDate", "lastDate", "freshness"]))
    return { path: "", message: "has the wrong shape" };
  return (
    countsProblem(value.counts) ?? datesProblem(value.firstDate, value.lastDate) ?? freshnessProblem(value.freshness)
  );
}
