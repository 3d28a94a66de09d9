/**
 * Build problems as data, and the one printer for humans.
 * Codes are permanent names: tools and people grep for them, so never rename one.
 */

export const PROBLEM_CODES = {
  unreadable_file: "the file could not be read",
  invalid_json: "the file or line is not valid JSON",
  not_an_array: "a .json source file must hold a JSON array of records",
  not_an_object: "a record must be a JSON object",
  missing_field: "a required field is missing",
  unknown_field: "a field that the spec does not define (usually a typo)",
  invalid_type: "a field has the wrong JSON type",
  invalid_value: "a field breaks a rule of the spec",
  duplicate_id: "two records of one resource share an id",
  dangling_reference: "a showtime refers to a cinema, film or attribute that does not exist",
  record_too_large: "a record is too large to keep every page under the response size limit",
  no_sources: "the data folder has no source files",
  offset_mismatch: "a warning: a showtime's written UTC offset is not its cinema's time zone's at that instant",
  unsupported_file: "a file under a resource folder that is not a source file (.json, .ndjson or .jsonl)",
  invalid_market: "markets.json is not JSON, not an array of 1..100 markets, or a market's field breaks a rule",
  duplicate_market: "two markets of markets.json share an id",
  country_in_two_markets: "a country is in two markets of markets.json",
  cinema_outside_markets: "a cinema's country is in no market of markets.json",
} as const;

/** Codes that are warnings: reported, never stopping the build. */
export const WARNING_CODES: ReadonlySet<ProblemCode> = new Set(["offset_mismatch"]);

export type ProblemCode = keyof typeof PROBLEM_CODES;

/** Where a problem is: a file and either an NDJSON line (1-based) or a JSON array index (0-based). */
export interface Problem {
  code: ProblemCode;
  file: string;
  line?: number;
  index?: number;
  /** Field path inside the record, e.g. "location.postcode"; empty for the whole record. */
  path: string;
  message: string;
}

/** Formats a field path the way people write it: a.b[2].c */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

function formatLocation(problem: Problem): string {
  if (problem.line !== undefined) return `${problem.file}:${problem.line}`;
  if (problem.index !== undefined) return `${problem.file}[${problem.index}]`;
  return problem.file;
}

/** One problem as two lines: what is wrong, then where. */
export function formatProblem(problem: Problem): string {
  const subject = problem.path === "" ? "" : `${problem.path} `;
  const where = [formatLocation(problem), problem.path].filter(Boolean).join(" ");
  return `✖ ${subject}${problem.message} [${problem.code}]\n  → ${where}`;
}

/** Orders problems by file, then position, so the report reads top to bottom and is deterministic. */
export function sortProblems(problems: Problem[]): Problem[] {
  const position = (p: Problem) => p.line ?? p.index ?? -1;
  return [...problems].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      position(a) - position(b) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/** The whole report: every problem, then a count per code. */
export function formatReport(problems: Problem[]): string {
  const lines = sortProblems(problems).map(formatProblem);
  const counts = new Map<string, number>();
  for (const p of problems) counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
  const summary = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, n]) => `${code} ${n}`);
  const noun = problems.length === 1 ? "problem" : "problems";
  lines.push("", `${problems.length} ${noun} (${summary.join(", ")}); nothing was written.`);
  return lines.join("\n");
}

/** Warnings printed per code before the rest are counted: a feed wrong in one way is wrong thousands of times. */
const MAX_WARNINGS_SHOWN = 20;

/**
 * Warnings after a successful build: each (up to MAX_WARNINGS_SHOWN per code) as a problem is, then a count per
 * code.
 */
export function formatWarnings(warnings: Problem[]): string {
  const shown = new Map<string, number>();
  const lines: string[] = [];
  for (const warning of sortProblems(warnings)) {
    const n = (shown.get(warning.code) ?? 0) + 1;
    shown.set(warning.code, n);
    if (n <= MAX_WARNINGS_SHOWN) lines.push(formatProblem(warning).replace(/^✖/, "⚠"));
  }
  for (const [code, n] of shown)
    if (n > MAX_WARNINGS_SHOWN) lines.push(`  … and ${n - MAX_WARNINGS_SHOWN} more ${code}`);
  const summary = [...shown].map(([code, n]) => `${code} ${n}`).join(", ");
  lines.push(
    `${warnings.length} ${warnings.length === 1 ? "warning" : "warnings"} (${summary}); the snapshot was written.`,
  );
  return lines.join("\n");
}
