/**
 * From a checked candidate to a confirmed deployment, in the release's working folder (decision:
 * prebuilt releases): the project's settings, `vercel build`, the output's checks, then the upload
 * and the state's advance, or for a dry run what would be uploaded. Each step prints a line, and a
 * step a dry run skips says so and why.
 */
import { rmSync } from "node:fs";
import { describeOpened } from "../vercel/vercel-build.js";
import type { ReleaseOptions } from "./args.js";
import { formatInstant } from "./clock.js";
import { runProcess } from "./processes.js";
import { type FolderSummary, nameRelease } from "./released-folder.js";
import { advanceState, type ReleaseRecord, type ReleaseState, type Target } from "./state.js";
import { checkBuiltOutput, formatMegabytes, summarizeUpload } from "./vercel-output-steps.js";
import { LINK_SOURCES, vercelBuild, vercelDeploy, vercelPull } from "./vercel-steps.js";
import { prepareWorkingFolder, removeWorkingFolder, workingFolder } from "./working-folder.js";

export interface ReleaseContext {
  options: ReleaseOptions;
  /** The injected clock's reading, epoch ms. */
  now: number;
  /** The checkout: where the link is read and the tracked files are copied from; never written. */
  project: string;
  env: NodeJS.ProcessEnv;
  print(line: string): void;
}

export interface Candidate {
  target: Target;
  state: ReleaseState;
  /** What the candidate holds: one snapshot, or markets (deployed together, decision: markets). */
  built: FolderSummary;
  /** The candidate snapshot's folder. */
  candidate: string;
  dropBefore: string;
  /** The checkout's tracked files. */
  files: string[];
  /** Whether a Vercel project is linked (only a dry run goes on without one). */
  linked: boolean;
}

/** Runs one step, then prints its line with the time it took. */
export async function step<T>(
  context: ReleaseContext,
  fn: () => T | Promise<T>,
  done: (value: T) => string,
): Promise<T> {
  const started = performance.now();
  const value = await fn();
  context.print(`${done(value)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return value;
}

async function gitCommit(project: string): Promise<string | null> {
  try {
    const outcome = await runProcess("git", ["rev-parse", "HEAD"], { cwd: project });
    return outcome.code === 0 ? outcome.stdout.trim() : null;
  } catch {
    return null;
  }
}

/** The working folder, then the project's settings: pulled for a linked project, else the local ones. */
async function prepareBuild(context: ReleaseContext, built: Candidate, work: string): Promise<void> {
  const { options, project } = context;
  const { files, linked, candidate } = built;
  await step(
    context,
    () => prepareWorkingFolder({ checkout: project, stateDir: options.stateDir, files, linked, candidate }),
    (copy) =>
      `working folder ${work}: ${copy.files} files of the checkout, ` +
      `node_modules ${copy.linked ? "linked" : "copied (another file system)"}, the candidate in snapshot/`,
  );
  if (!built.linked) {
    context.print(
      `skipped vercel pull: no Vercel project is linked ${LINK_SOURCES}; ` +
        "vercel build runs offline with local settings, as verify:vercel's",
    );
    return;
  }
  await step(
    context,
    () => vercelPull(work, built.target),
    (tightened) =>
      `vercel pull: the project's ${built.target} settings` +
      (tightened.length ? `; made owner-only (0600): ${tightened.join(", ")}` : ""),
  );
}

/** vercel build with the candidate, its checks, then the upload (or, for a dry run, what it would be). */
export async function shipCandidate(context: ReleaseContext, built: Candidate): Promise<void> {
  const work = workingFolder(context.options.stateDir);
  try {
    await prepareBuild(context, built, work);
    await buildAndUpload(context, built, work);
  } finally {
    removeWorkingFolder(context.options.stateDir);
  }
}

async function buildAndUpload(context: ReleaseContext, built: Candidate, work: string): Promise<void> {
  const { options, project } = context;
  const { target, built: release } = built;
  await step(
    context,
    () => vercelBuild(work, target, release.snapshotId),
    (opened) => `vercel build: .vercel/output written${describeOpened(opened)}`,
  );
  const facts = checkBuiltOutput(work, built.candidate);
  const upload = summarizeUpload(work);
  const functions = release.markets
    ? `a function per market, ${release.markets.length}, with their snapshots' ${facts.snapshotFiles} files`
    : `the function ${formatMegabytes(facts.functionBytes)} with the snapshot's ${facts.snapshotFiles} files`;
  const what = `${upload.files} files, ${formatMegabytes(upload.bytes)} (${functions})`;
  context.print(`checked .vercel/output: every check passed; ${what}`);
  if (options.dryRun) {
    rmSync(built.candidate, { recursive: true, force: true });
    context.print(
      `skipped vercel deploy: a dry run uploads nothing (it would upload ${what}); ${options.stateDir} unchanged`,
    );
    return;
  }
  const url = await step(
    context,
    () => vercelDeploy(work, target),
    (deployed) => `vercel deploy: ${deployed} is ready`,
  );
  const record: ReleaseRecord = {
    snapshotId: release.snapshotId,
    url,
    deployedAt: formatInstant(context.now),
    dropBefore: built.dropBefore,
    ...(release.markets ? {} : { counts: release.counts }),
    commit: await gitCommit(project),
    // Each market's last release, which its next diff and history go on from.
    ...(release.markets ? { markets: release.markets } : {}),
  };
  advanceState(options.stateDir, built.state, target, record, built.candidate);
  context.print(`${options.stateDir}: the last ${target} release is now ${nameRelease(release)}`);
}
