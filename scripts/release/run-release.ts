/**
 * `npm run release`: from a data folder to a confirmed deployment in named steps (decision:
 * prebuilt releases). Each step prints a line; a stop says why, with its exit status. The state
 * advances only after `vercel deploy` confirmed the deployment, so a failure anywhere loses nothing.
 */
import { rmSync } from "node:fs";
import type { Manifest } from "../../api/_core/format/layout/manifest.js";
import type { ReleaseOptions } from "./args.js";
import { dropBeforeFor, formatInstant } from "./clock.js";
import { runProcess } from "./processes.js";
import { buildCandidate, diffAgainstRelease, ReleaseStop } from "./snapshot-steps.js";
import { advanceState, candidateDir, pruneSnapshots, readState, releasedSnapshotDir } from "./state.js";
import type { ReleaseRecord, ReleaseState, Target } from "./state.js";
import { checkBuiltOutput, formatMegabytes, placeSnapshot, summarizeUpload } from "./vercel-output-steps.js";
import { describeLink, vercelBuild, vercelDeploy, vercelPull } from "./vercel-steps.js";

export interface ReleaseContext {
  options: ReleaseOptions;
  /** The injected clock's reading, epoch ms. */
  now: number;
  /** The Vercel project folder (the repository checkout). */
  project: string;
  env: NodeJS.ProcessEnv;
  print(line: string): void;
}

/** Runs one step, then prints its line with the time it took. */
async function step<T>(context: ReleaseContext, fn: () => T | Promise<T>, done: (value: T) => string): Promise<T> {
  const started = performance.now();
  const value = await fn();
  context.print(`${done(value)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return value;
}

function describeRecord(record: ReleaseRecord | undefined): string {
  return record ? `snapshot ${record.snapshotId}, deployed ${record.deployedAt} at ${record.url}` : "none";
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
        "otherwise restore the state folder from where it was kept (a new history would invalidate every client's sync token)",
    );
  if (options.first && last)
    throw new ReleaseStop(2, `--first, but ${options.stateDir} records a production release (${describeRecord(last)})`);
  context.print(`last production release: ${describeRecord(last)}`);
  if (target === "preview") context.print(`last preview: ${describeRecord(state.preview)}`);
  return state;
}

async function gitCommit(project: string): Promise<string | null> {
  try {
    const outcome = await runProcess("git", ["rev-parse", "HEAD"], { cwd: project });
    return outcome.code === 0 ? outcome.stdout.trim() : null;
  } catch {
    return null;
  }
}

function describeBuild(manifest: Manifest): string {
  const c = manifest.counts;
  return `built snapshot ${manifest.snapshotId}: ${c.showtimes} showtimes, ${c.cinemas} cinemas, ${c.films} films, ${c.attributes} attributes`;
}

/** The diff against the released snapshot, printed; a share over the limit stops the release (exit 4). */
async function diffStep(context: ReleaseContext, previous: string, candidate: string): Promise<void> {
  const percent = context.options.removedPercent;
  const diff = await step(
    context,
    () => diffAgainstRelease({ from: previous, to: candidate, removedPercent: percent }),
    () => `diff against the last release: no resource lost more than ${percent}%`,
  );
  for (const line of diff.text.trimEnd().split("\n")) context.print(`  ${line}`);
}

/** Build, diff and Vercel steps; returns the exit status. */
export async function runRelease(context: ReleaseContext): Promise<number> {
  const { options, project } = context;
  const target: Target = options.prod ? "production" : "preview";
  context.print(
    `${options.dryRun ? "dry run of a" : "a"} ${target} release of ${options.dataDir} to ${describeLink(project, context.env)}`,
  );
  const state = readStartingState(context, target);
  pruneSnapshots(options.stateDir, state);
  const candidate = candidateDir(options.stateDir);
  rmSync(candidate, { recursive: true, force: true });
  const released = state.production;
  const previous = released && releasedSnapshotDir(options.stateDir, released.snapshotId);
  const dropBefore = dropBeforeFor(context.now, options.keepPastDays);
  context.print(
    `build: showtimes before ${dropBefore} left out; history ${previous ? `from snapshot ${released!.snapshotId}` : "starts afresh"}`,
  );
  const manifest = await step(
    context,
    () => buildCandidate({ dataDir: options.dataDir, outDir: candidate, dropBefore, previous }),
    describeBuild,
  );
  if (state[target]?.snapshotId === manifest.snapshotId && !options.force) {
    rmSync(candidate, { recursive: true, force: true });
    context.print(
      `nothing new to deploy: the last ${target} release has snapshot ${manifest.snapshotId} (--force deploys it again)`,
    );
    return 0;
  }
  if (previous) await diffStep(context, previous, candidate);
  else context.print("diff: no earlier release to compare with");
  await shipCandidate(context, target, state, manifest, { candidate, dropBefore });
  return 0;
}

/** vercel build with the candidate, its checks, then the upload (or, for a dry run, what it would be). */
async function shipCandidate(
  context: ReleaseContext,
  target: Target,
  state: ReleaseState,
  manifest: Manifest,
  built: { candidate: string; dropBefore: string },
): Promise<void> {
  const { options, project } = context;
  placeSnapshot(built.candidate, project);
  await step(
    context,
    () => vercelPull(project, target),
    () => `vercel pull: the project's ${target} settings`,
  );
  await step(
    context,
    () => vercelBuild(project, target, manifest.snapshotId),
    () => "vercel build: .vercel/output written",
  );
  const facts = checkBuiltOutput(project, built.candidate);
  const upload = summarizeUpload(project);
  const what = `${upload.files} files, ${formatMegabytes(upload.bytes)} (the function ${formatMegabytes(facts.functionBytes)} with the snapshot's ${facts.snapshotFiles} files)`;
  context.print(`checked .vercel/output: every check passed; ${what}`);
  if (options.dryRun) {
    rmSync(built.candidate, { recursive: true, force: true });
    context.print(`dry run: would upload ${what} from .vercel/output; nothing deployed, ${options.stateDir} unchanged`);
    return;
  }
  const url = await step(
    context,
    () => vercelDeploy(project, target),
    (deployed) => `vercel deploy: ${deployed} is ready`,
  );
  const record: ReleaseRecord = {
    snapshotId: manifest.snapshotId,
    url,
    deployedAt: formatInstant(context.now),
    dropBefore: built.dropBefore,
    counts: manifest.counts,
    commit: await gitCommit(project),
  };
  advanceState(options.stateDir, state, target, record, built.candidate);
  context.print(`${options.stateDir}: the last ${target} release is now snapshot ${manifest.snapshotId}`);
}
