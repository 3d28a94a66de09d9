/**
 * What the function bundles, checked so that an operator can act on it: its size under Vercel's
 * limit, naming the largest parts when it is not, and no link leaving its piece. `vercel build`
 * bundles a package that is a link out of the project (a node_modules of links, `npm link`) as that
 * link, which Vercel deploys as it is, dangling; and a size counted through such links measures the
 * installed tree, not the function (a checkout whose node_modules held links counted 476.6 MB on
 * Node.js 24 for a function of 1.4 MB plus links).
 */
import { existsSync, readlinkSync, statSync } from "node:fs";
import path from "node:path";
import { type CheckFn, FUNCTION_SIZE_LIMIT, isInside, listEntries, pieceDirs, relativeName } from "./output-layout.js";

/** At most this many parts or links named in a detail. */
const NAMED = 3;

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The part of the bundle a file counts to: its package (node_modules/name, node_modules/@scope/name) or top folder. */
export function partOf(bundled: string): string {
  const segments = bundled.split("/");
  if (segments[0] !== "node_modules" || segments.length < 3) return segments.length > 1 ? segments[0]! : bundled;
  return segments.slice(0, segments[1]!.startsWith("@") ? 3 : 2).join("/");
}

/**
 * The function's size (its files: bundled name → file), checked against the limit under the check's
 * `name` (one per function when the output has one per market); returns it in bytes.
 */
export function checkSize(
  files: Map<string, string>,
  check: CheckFn,
  name = "its uncompressed size is under 250 MB",
): number {
  const parts = new Map<string, number>();
  let total = 0;
  for (const [bundled, file] of files) {
    const size = existsSync(file) ? statSync(file).size : 0;
    total += size;
    parts.set(partOf(bundled), (parts.get(partOf(bundled)) ?? 0) + size);
  }
  const largest = [...parts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, NAMED)
    .map(([part, size]) => `${part} ${megabytes(size)}`);
  const fits = total < FUNCTION_SIZE_LIMIT;
  check(name, fits, fits ? megabytes(total) : `${megabytes(total)}; the largest: ${largest.join(", ")}`);
  return total;
}

/** A link in `pieceDir` that leads out of it, or to nothing: "name → target (why)". */
function linkProblem(outputDir: string, pieceDir: string, link: string): string | undefined {
  const file = path.join(outputDir, link);
  const target = path.resolve(path.dirname(file), readlinkSync(file));
  if (!isInside(path.join(outputDir, pieceDir), target)) return `${link} → ${target} (outside it)`;
  if (!existsSync(target)) return `${link} → ${path.relative(path.dirname(file), target)} (missing)`;
  return undefined;
}

/** Every link in the function and the middleware leads to something inside its piece. */
export function checkLinks(outputDir: string, check: CheckFn): void {
  const problems: string[] = [];
  for (const piece of pieceDirs(outputDir))
    for (const entry of listEntries(path.join(outputDir, piece))) {
      if (!entry.isSymbolicLink()) continue;
      const problem = linkProblem(outputDir, piece, relativeName(outputDir, entry));
      if (problem) problems.push(problem);
    }
  const more = problems.length > NAMED ? `, and ${problems.length - NAMED} more` : "";
  const hint = problems.some((p) => p.endsWith("(outside it)"))
    ? "; deployed as they are, dangling: install the packages with npm ci, not as links to them"
    : "";
  check(
    "every link in the function and the middleware leads to a file or folder inside it",
    problems.length === 0,
    problems.length ? `${problems.slice(0, NAMED).join(", ")}${more}${hint}` : "none leaves it",
  );
}
