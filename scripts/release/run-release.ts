/**
 * `npm run release`: from a data folder to a confirmed deployment in named steps (decision:
 * prebuilt releases). Each step prints a line; a stop says why, with its exit status. The state
 * advances only after `vercel deploy` confirmed the deployment, so a failure anywhere loses nothing.
 */
import { rmSync } from "node:fs";
import { listTrackedFiles, WorkingCopyError } from "../vercel/working-copy.js";
import { dropBeforeFor } from "./clock.js";
import { diffMarketsStep } from "./market-diff.js";
import { type FolderSummary, formatHoldings, nameRelease, summarizeFolder } from "./released-folder.js";
import { type ReleaseContext, shipCandidate, step } from "./ship-candidate.js";
import { buildCandidate, diffAgainstRelease, ReleaseStop } from "./snapshot-steps.js";
import { candidateDir, pruneSnapshots, readState, releasedSnapshotDir } from "./state.js";
import type { ReleaseRecord, ReleaseState, Target } from "./state.js";
import { findLink, LINK_SOURCES, requireLink } from "./vercel-steps.js";
import { removeWorkingFolder } from "./working-folder.js";

function describeRecord(record: ReleaseRecord | undefined): string {
  return record ? `${nameRelease(record)}, deployed ${record.deployedAt} at ${record.url}` : "none";
}

/** What the state says, and whether this release may go ahead on it (--first guards the history). */
function readStartingState(context: ReleaseContext, target: Target): ReleaseState {
  const { options } = context;
  const state = readState(options.stateDir);
  const last = state.production;
  if (target === "production" && !last && !options.first)
    throw new ReleaseStop(
      2,
      `${options.stateDir} holds no earlier production release. For the project's first release add --first; ` +
        "otherwise restore the state folder from where it was kept (a new history would invalidate every " +
        "client's sync token)",
    );
  if (options.first && last)
    throw new ReleaseStop(2, `--first, but ${options.stateDir} records a production release (${describeRecord(last)})`);
  context.print(`last production release: ${describeRecord(last)}`);
  if (target === "preview") context.print(`last preview: ${describeRecord(state.preview)}`);
  return state;
}

const describeBuild = (built: FolderSummary) => `built ${nameRelease(built)}: ${formatHoldings(built)}`;

/** The diff against the released snapshot, printed; a share over the limit stops the release (exit 4). */
async function diffStep(context: ReleaseContext, previous: string, candidate: string, built: FolderSummary) {
  const percent = context.options.removedPercent;
  const released = summarizeFolder(previous);
  if (built.markets) return diffMarketsStep(context, { previous, released, candidate, built, removedPercent: percent });
  if (released.markets) {
    context.print(
      `diff: the last release had markets ${released.markets.map((m) => m.id).join(", ")} and this data has none ` +
        "(no markets.json): nothing to compare with, its history starts afresh",
    );
    return;
  }
  const diff = await step(
    context,
    () => diffAgainstRelease({ from: previous, to: candidate, removedPercent: percent }),
    () => `diff against the last release: no resource lost more than ${percent}%`,
  );
  for (const line of diff.text.trimEnd().split("\n")) context.print(`  ${line}`);
}

/**
 * The project the release goes to, and the first line, which names it. Only a dry run goes ahead
 * with none linked: it needs no account (decision: prebuilt releases).
 */
function introduce(context: ReleaseContext, target: Target): string | undefined {
  const { options, project, env } = context;
  const link = options.dryRun ? findLink(project, env) : requireLink(project, env);
  const to = link === undefined ? `, with no Vercel project linked ${LINK_SOURCES}` : ` to ${link}`;
  context.print(`${options.dryRun ? "dry run of a" : "a"} ${target} release of ${options.dataDir}${to}`);
  return link;
}

/**
 * The checkout's tracked files, which the working folder copies: listed first, so a folder that is
 * not a git checkout stops before the build.
 */
function listCheckoutFiles(project: string): string[] {
  try {
    return listTrackedFiles(project);
  } catch (error) {
    if (error instanceof WorkingCopyError) throw new ReleaseStop(2, error.message);
    throw error;
  }
}

/** Build, diff and Vercel steps; returns the exit status. */
export async function runRelease(context: ReleaseContext): Promise<number> {
  const { options, project } = context;
  const target: Target = options.prod ? "production" : "preview";
  const link = introduce(context, target);
  const files = listCheckoutFiles(project);
  const state = readStartingState(context, target);
  pruneSnapshots(options.stateDir, state);
  // One left by a release that was killed holds pulled secrets: never kept, whatever this run does.
  removeWorkingFolder(options.stateDir);
  const candidate = candidateDir(options.stateDir);
  rmSync(candidate, { recursive: true, force: true });
  const released = state.production;
  const previous = released && releasedSnapshotDir(options.stateDir, released.snapshotId);
  const dropBefore = dropBeforeFor(context.now, options.keepPastDays);
  context.print(
    `build: showtimes before ${dropBefore} left out; ` +
      `history ${previous ? `from ${nameRelease(released!)}` : "starts afresh"}`,
  );
  const built = await step(
    context,
    () => buildCandidate({ dataDir: options.dataDir, outDir: candidate, dropBefore, previous }),
    describeBuild,
  );
  if (state[target]?.snapshotId === built.snapshotId && !options.force) {
    rmSync(candidate, { recursive: true, force: true });
    context.print(
      `nothing new to deploy: the last ${target} release has ${nameRelease(built)} (--force deploys it again)`,
    );
    return 0;
  }
  if (previous) await diffStep(context, previous, candidate, built);
  else context.print("diff: no earlier release to compare with");
  await shipCandidate(context, { target, state, built, candidate, dropBefore, files, linked: link !== undefined });
  return 0;
}
