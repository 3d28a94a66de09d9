/**
 * What a successful build tells the operator beyond its counts: where the cinemas' time zones came from, what was
 * left out.
 */
import type { BuildReport, CheckReport } from "../run-build.js";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Entries not read named before the rest are counted: a folder is one entry, however many files it holds. */
const MAX_UNREAD_SHOWN = 10;

/** The notice of what the data folder holds that the build does not read (decision: what the build reads). */
function unreadLine(unread: readonly string[]): string {
  const shown = unread.slice(0, MAX_UNREAD_SHOWN).join(", ");
  const more = unread.length > MAX_UNREAD_SHOWN ? ` and ${unread.length - MAX_UNREAD_SHOWN} more` : "";
  return `not read by the build: ${shown}${more}`;
}

/**
 * Lines for stdout after the "built" (or "checked") line (decision: time zones; decision: upcoming
 * showtimes); a check has no history to report.
 */
export function formatBuildReport(report: BuildReport | CheckReport): string {
  const { given, fromCoordinates, fromCountry, without } = report.zoneCounts;
  const lines = [
    `time zones: ${given} given, ${fromCoordinates} derived from coordinates, ${fromCountry} from the country, ` +
      `${without} without (${plural(fromCoordinates + fromCountry, "cinema")} derived)`,
  ];
  if ("history" in report) {
    const { history } = report;
    lines.push(
      history.restarted
        ? `history: begun afresh at generation 0 (${history.restarted})`
        : `history: generation ${history.generation} (${plural(history.upserts, "record")} changed, ` +
            `${plural(history.deletes, "deletion")})`,
    );
  }
  if (report.dropped)
    lines.push(
      `dropped ${plural(report.dropped.showtimes, "showtime")} that start before ${report.dropped.before.text} ` +
        (report.dropped.before.carried ? "(the previous snapshot's: it never moves back)" : "(--drop-before)"),
    );
  if (report.unread.length > 0) lines.push(unreadLine(report.unread));
  return `${lines.join("\n")}\n`;
}
