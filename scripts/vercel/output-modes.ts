/**
 * The modes of what the deployed pieces read, in `vercel build`'s output (decision: gateway
 * secret). The platform may run a function as a user other than its files' owner (AWS Lambda
 * does), and the bundles keep the modes the files had: a file only its owner can read is then
 * unreadable at run time (the gateway secret was, and every admitted request was a 503), which a
 * check run by the owner never sees. So every file of the function and the middleware must be
 * readable by others, every folder in them listable and traversable by others.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { type CheckFn, FUNCTION_DIR, isInside, listEntries, pieceDirs, relativeName } from "./output-layout.js";

/** Others' read bit: what a file needs. */
const OTHERS_READ = 0o004;
/** Others' read and search bits: what a folder needs to be listed and entered. */
const OTHERS_READ_SEARCH = 0o005;
/** At most this many offenders named in the detail. */
const NAMED = 5;

/** What the platform needs of a file or folder at `file` (followed through links), or what is wrong. */
function modeProblem(file: string): string | undefined {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(file);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? "unreadable";
  }
  const mode = stats.mode & 0o777;
  const needed = stats.isDirectory() ? OTHERS_READ_SEARCH : OTHERS_READ;
  return (mode & needed) === needed ? undefined : mode.toString(8);
}

/** The piece's folder and everything in it, as paths relative to the output. */
function entriesOf(outputDir: string, pieceDir: string): string[] {
  const dir = path.join(outputDir, pieceDir);
  if (!existsSync(dir)) return [];
  const inside = listEntries(dir).map((entry) => relativeName(outputDir, entry));
  return [pieceDir, ...inside.sort()];
}

/**
 * Every file and folder of the function (and of each market's) and the middleware, and the files the function maps from
 * the project (`filePathMap`, named by their place in the bundle), readable by other users.
 */
export function checkModes(outputDir: string, functionFiles: Map<string, string>, check: CheckFn): void {
  const offenders: string[] = [];
  for (const piece of pieceDirs(outputDir))
    for (const entry of entriesOf(outputDir, piece)) {
      const problem = modeProblem(path.join(outputDir, entry));
      if (problem) offenders.push(`${entry} ${problem}`);
    }
  const inFunction = path.join(outputDir, FUNCTION_DIR);
  for (const [bundled, file] of functionFiles) {
    if (isInside(inFunction, file)) continue; // seen above
    const problem = modeProblem(file);
    if (problem) offenders.push(`${FUNCTION_DIR}/${bundled} (from the project) ${problem}`);
  }
  const more = offenders.length > NAMED ? `, and ${offenders.length - NAMED} more` : "";
  check(
    "every file the function and the middleware read is readable by other users, every folder listable and traversable",
    offenders.length === 0,
    offenders.length ? `${offenders.slice(0, NAMED).join(", ")}${more}` : "all readable",
  );
}
