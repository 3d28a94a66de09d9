/**
 * What a successful build tells the operator beyond its counts: where the cinemas' time zones came from, what was
 * left out, and with markets, each market's counts and history.
 */
import type { HistoryReport } from "../history/carry-history.js";
import type { DroppedShowtimes } from "../localize/drop-before.js";
import type { BuildReport, CheckReport, MarketsBuildReport, MarketsReport } from "../build-types.js";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Entries not read named before the rest are counted: a folder is one entry, however many files it holds. */
const MAX_UNREAD_SHOWN = 10;

/** The notice of what the data folder holds that the build does not read (decision: what the build reads). */
function unreadLine(unread: readonly string[]): string {
  const shown = unread.slice(0, MAX_UNREAD_SHOWN).join(", ");
  const more = unread.length > MAX_UNREAD_SHOWN ? ` and ${unread.length - MAX_UNREAD_SHOWN} more` : "";
  return `not read by the build: ${shown}${more}`;
}

function historyLine(history: HistoryReport): string {
  return history.restarted
    ? `history: begun afresh at generation 0 (${history.restarted})`
    : `history: generation ${history.generation} (${plural(history.upserts, "record")} changed, ` +
        `${plural(history.deletes, "deletion")})`;
}

function droppedLine(dropped: DroppedShowtimes): string {
  return (
    `dropped ${plural(dropped.showtimes, "showtime")} that start before ${dropped.before.text} ` +
    (dropped.before.carried ? "(the previous snapshot's: it never moves back)" : "(--drop-before)")
  );
}

/** A line per market (its counts, history and what it dropped), a notice per empty market, the films in none. */
function marketLines({ markets, filmsInNoMarket }: MarketsReport): string[] {
  const lines = markets.map(({ market, counts, history, dropped }) =>
    [
      `market ${market.id}: ${plural(counts.cinemas, "cinema")}, ${plural(counts.films, "film")}, ` +
        `${plural(counts.showtimes, "showtime")}`,
      ...(history ? [historyLine(history)] : []),
      ...(dropped ? [droppedLine(dropped)] : []),
    ].join("; "),
  );
  for (const { market, counts } of markets)
    if (counts.cinemas === 0)
      lines.push(
        `notice: market ${market.id} holds no cinema (none in ${market.countries.join(", ")}): its snapshot is empty`,
      );
  lines.push(`films showing in no market: ${filmsInNoMarket}, left out`);
  return lines;
}

/**
 * Lines for stdout after the "built" (or "checked") line (decision: time zones; decision: upcoming
 * showtimes; decision: markets); a check has no history to report.
 */
export function formatBuildReport(report: BuildReport | MarketsBuildReport | CheckReport): string {
  const { given, fromCoordinates, fromCountry, without } = report.zoneCounts;
  const lines = [
    `time zones: ${given} given, ${fromCoordinates} derived from coordinates, ${fromCountry} from the country, ` +
      `${without} without (${plural(fromCoordinates + fromCountry, "cinema")} derived)`,
  ];
  if ("history" in report) lines.push(historyLine(report.history));
  if (report.dropped) lines.push(droppedLine(report.dropped));
  if (report.markets) lines.push(...marketLines(report.markets));
  if (report.unread.length > 0) lines.push(unreadLine(report.unread));
  return `${lines.join("\n")}\n`;
}
