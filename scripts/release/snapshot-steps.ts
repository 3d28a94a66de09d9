/**
 * The release's data steps, through the project's own commands (the same as `npm run build` and
 * `npm run diff`): build the candidate with the history of the last release, then diff it against
 * that release (a multi-market candidate market by market, market-diff.ts).
 */
import path from "node:path";
import { formatText, type SnapshotDiff } from "../diff/report.js";
import { ROOT, runEntry, tail } from "./processes.js";
import { type FolderSummary, summarizeFolder } from "./released-folder.js";

/** The release stops here with this exit status; the message says why and what to do. */
export class ReleaseStop extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

export interface CandidateRequest {
  dataDir: string;
  outDir: string;
  dropBefore: string;
  /** The last release's snapshot, whose history the candidate carries on (absent: the first release). */
  previous?: string;
}

/**
 * Builds the candidate (one snapshot, or with markets.json a folder of markets); its problems and
 * report reach the operator as the build prints them.
 */
export async function buildCandidate(request: CandidateRequest): Promise<FolderSummary> {
  const args = ["--data", path.resolve(request.dataDir), "--out", path.resolve(request.outDir)];
  args.push("--drop-before", request.dropBefore);
  if (request.previous !== undefined) args.push("--previous", path.resolve(request.previous));
  const outcome = await runEntry(path.join(ROOT, "build/index.ts"), args, { passThrough: "both" });
  if (outcome.code === 1)
    throw new ReleaseStop(1, "the data is invalid (every problem is listed above): nothing was deployed");
  if (outcome.code !== 0)
    throw new ReleaseStop(2, `the build failed (exit ${outcome.code}, its message is above): nothing was deployed`);
  return summarizeFolder(request.outDir);
}

export interface DiffRequest {
  from: string;
  to: string;
  removedPercent: number;
}

export interface DiffSummary {
  /** The diff's report: a line per resource and a few of its changes. */
  text: string;
  changed: boolean;
  /** Why the diff exceeds --fail-if-removed-over: a line per resource over it (none: within the limit). */
  over: string[];
}

/** Changes listed per resource in the release's summary (the whole report is one `npm run diff` away). */
const LISTED_CHANGES = 3;

/** Diffs two snapshots with `npm run diff`; what it found, within the removal limit or not. */
export async function compareSnapshots(request: DiffRequest): Promise<DiffSummary> {
  const args = ["--from", path.resolve(request.from), "--to", path.resolve(request.to), "--json"];
  args.push("--max-changes", String(LISTED_CHANGES), "--fail-if-removed-over", `${request.removedPercent}%`);
  const outcome = await runEntry(path.join(ROOT, "scripts/diff.ts"), args, {});
  if (outcome.code !== 0 && outcome.code !== 1 && outcome.code !== 4)
    throw new ReleaseStop(2, `the diff failed (exit ${outcome.code}): ${tail(outcome.stderr, 5)}`);
  const resources = (JSON.parse(outcome.stdout) as { resources: SnapshotDiff }).resources;
  const over =
    outcome.code === 4
      ? outcome.stderr
          .trim()
          .split("\n")
          .map((line) => line.replace(/^diff: /, ""))
      : [];
  return { text: formatText(resources), changed: outcome.code !== 0, over };
}

/** What to do after a stop for removals: review the diff, then release with a higher limit if it is right. */
export function reviewAdvice(from: string, to: string): string {
  return (
    `Review the changes (npm run diff -- --from ${from} --to ${to}); ` +
    "if they are right, release again with --fail-if-removed-over set above that share"
  );
}

/** Diffs the candidate against the last release; stops (exit 4) when a resource lost more than allowed. */
export async function diffAgainstRelease(request: DiffRequest): Promise<DiffSummary> {
  const diff = await compareSnapshots(request);
  if (diff.over.length > 0)
    throw new ReleaseStop(
      4,
      `${diff.text}${diff.over.join("\n")}\nnothing was deployed. ${reviewAdvice(request.from, request.to)}`,
    );
  return diff;
}
