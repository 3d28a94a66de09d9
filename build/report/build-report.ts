/**
 * What a successful build tells the operator beyond its counts: where the cinemas' time zones came from, what was
 * left out.
 */
import type { BuildReport } from "../run-build.js";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Lines for stdout after the "built" line (decision: time zones; decision: upcoming showtimes). */
export function formatBuildReport(report: BuildReport): string {
  const { given, fromCoordinates, fromCountry, without } = report.zoneCounts;
  const lines = [
    `time zones: ${given} given, ${fromCoordinates} derived from coordinates, ${fromCountry} from the country, ` +
      `${without} without (${plural(fromCoordinates + fromCountry, "cinema")} derived)`,
  ];
  const { history } = report;
  lines.push(
    history.restarted
      ? `history: begun afresh at generation 0 (${history.restarted})`
      : `history: generation ${history.generation} (${plural(history.upserts, "record")} changed, ` +
          `${plural(history.deletes, "deletion")})`,
  );
  if (report.dropped)
    lines.push(
      `dropped ${plural(report.dropped.showtimes, "showtime")} that start before ${report.dropped.before.text} ` +
        (report.dropped.before.carried ? "(the previous snapshot's: it never moves back)" : "(--drop-before)"),
    );
  return `${lines.join("\n")}\n`;
}
