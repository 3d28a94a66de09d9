/**
 * The release state (`--state`, default .release/, never committed): what was last deployed and
 * the snapshot production serves, which the next release diffs against and carries the history
 * from (decision: prebuilt releases). It changes only after the platform confirmed a deployment,
 * and atomically: the new snapshot is moved in under its own name first, then state.json is
 * replaced by a rename, then the old snapshot goes. A crash at any point leaves the old state whole.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { LIST_RESOURCES } from "../../api/_core/format/layout/manifest.js";
import { replaceFile } from "../files/replace-file.js";
import { nameRelease, summarizeFolder } from "./released-folder.js";

export const STATE_FILE = "state.json";
const SNAPSHOTS = "snapshots";
const STATE_FORMAT = 1;

const snapshotId = z.string().regex(/^[0-9a-f]{32}$/);
const counts = z.strictObject(Object.fromEntries(LIST_RESOURCES.map((r) => [r, z.number().int().min(0)])));
const releaseRecord = z
  .strictObject({
    /** The snapshot's id, or a multi-market folder's index id (decision: markets, released together). */
    snapshotId,
    url: z.string().min(1),
    deployedAt: z.string(),
    dropBefore: z.string(),
    /** The snapshot's counts; a release of markets has each market's instead. */
    counts: counts.optional(),
    commit: z.string().nullable(),
    /** Each market released, in markets.json's order (decision: markets, released together). */
    markets: z
      .array(z.strictObject({ id: z.string(), snapshotId, counts }))
      .min(1)
      .optional(),
  })
  .refine((record) => (record.counts === undefined) !== (record.markets === undefined), {
    message: "a release has either counts or markets",
  });
const stateSchema = z.strictObject({
  format: z.literal(STATE_FORMAT),
  production: releaseRecord.optional(),
  preview: releaseRecord.optional(),
});

export type ReleaseRecord = z.infer<typeof releaseRecord>;
export type ReleaseState = z.infer<typeof stateSchema>;
export type Target = "production" | "preview";

/** A state that cannot be used as it is: the operator must look (exit 2, nothing built). */
export class StateError extends Error {}

/** Where the production release's snapshot is kept, under its id. */
export function releasedSnapshotDir(stateDir: string, snapshotId: string): string {
  return path.join(stateDir, SNAPSHOTS, snapshotId);
}

/** Where this run builds its candidate. */
export function candidateDir(stateDir: string): string {
  return path.join(stateDir, "candidate");
}

/** Reads the state (an absent folder or file is an empty state) and checks the production snapshot is there. */
export function readState(stateDir: string): ReleaseState {
  const file = path.join(stateDir, STATE_FILE);
  if (!existsSync(file)) return { format: STATE_FORMAT };
  let state: ReleaseState;
  try {
    state = stateSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch (error) {
    const reason = error instanceof z.ZodError ? "has the wrong shape" : `cannot be read (${(error as Error).message})`;
    throw new StateError(`${file} ${reason}: restore the folder from a copy, or move it aside and start with --first`);
  }
  const production = state.production;
  if (production) checkReleasedSnapshot(stateDir, production.snapshotId);
  return state;
}

/** The released folder holds what state.json names: one snapshot, or every market's (their index's id). */
function checkReleasedSnapshot(stateDir: string, snapshotId: string): void {
  const dir = releasedSnapshotDir(stateDir, snapshotId);
  let found;
  try {
    found = summarizeFolder(dir);
  } catch (error) {
    throw new StateError(`the last release's snapshot ${dir} cannot be read (${(error as Error).message})`);
  }
  if (found.snapshotId !== snapshotId)
    throw new StateError(`${dir} holds ${nameRelease(found)}, not ${snapshotId} as recorded`);
}

/**
 * Records a confirmed deployment. For production the candidate becomes the released snapshot
 * (moved in under its id before state.json names it); a preview changes only its record.
 */
export function advanceState(
  stateDir: string,
  state: ReleaseState,
  target: Target,
  record: ReleaseRecord,
  candidate: string,
): ReleaseState {
  mkdirSync(stateDir, { recursive: true });
  if (target === "production") {
    const dir = releasedSnapshotDir(stateDir, record.snapshotId);
    mkdirSync(path.dirname(dir), { recursive: true });
    // With --force the same snapshot can be released again: the one kept is identical.
    if (existsSync(dir)) rmSync(candidate, { recursive: true, force: true });
    else renameSync(candidate, dir);
  }
  const next: ReleaseState = { ...state, [target]: record };
  replaceFile(path.join(stateDir, STATE_FILE), `${JSON.stringify(next, null, 2)}\n`);
  pruneSnapshots(stateDir, next);
  return next;
}

/** Removes snapshots the state no longer names (the one replaced, or one left by a crash). */
export function pruneSnapshots(stateDir: string, state: ReleaseState): void {
  const root = path.join(stateDir, SNAPSHOTS);
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    if (name !== state.production?.snapshotId) rmSync(path.join(root, name), { recursive: true, force: true });
  }
}
