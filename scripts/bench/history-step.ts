/**
 * The changes feed's history bench (`npm run bench -- --history 200k:30,2M:3`, docs/performance.md):
 * from a generated dataset, a day of churn at a time (`npm run generate -- --churn`), each day built
 * with the real CLI with `--previous` the day before's snapshot and `--drop-before` a day later
 * each time, as the daily workflow runs it. Then, in process through the request core: a full copy
 * of the last snapshot and a catch-up from the day before's token, at the feed's largest limit; the
 * history's share of the snapshot; and the last day built again without `--previous`, alternating
 * with it, for the time the history adds.
 */
import { rmSync, statSync } from "node:fs";
import path from "node:path";
import { formatDay } from "../generate/calendar.js";
import { ensureData, folderSize, stagesOf } from "./build-step.js";
import { feedInProcess, feedQuery, walkFeed } from "./feed-walk.js";
import { runMeasured } from "./processes.js";

/** The feed's largest page: a mirror's fewest requests. */
export const SYNC_LIMIT = 5000;
const TSX = ["--import", "tsx"];

export interface ChainBuild {
  /** 0: the generated dataset, built without --previous; k: after k days of churn. */
  step: number;
  wallSeconds: number;
  peakRssMb: number;
  stages: Record<string, number>;
  /** The build report's history line: the generation and what changed in it. */
  history: string;
}

export interface SyncFigures {
  requests: number;
  changes: number;
  largestBytes: number;
}

export interface HistoryFigures {
  showtimes: number;
  steps: number;
  builds: ChainBuild[];
  fullCopy: SyncFigures;
  /** From the token of the day before's snapshot to the last one. */
  catchUp: SyncFigures;
  historyBytes: number;
  snapshotBytes: number;
  /** The last day's build, wall seconds: with --previous (the chain's, then again) and without, alternating. */
  withPrevious: number[];
  withoutPrevious: number[];
  /** The history stage's seconds in the builds with --previous. */
  historyStage: number[];
}

/** Writes `to`: the dataset `from` a day later (seed: which day of churn). */
async function churn(from: string, to: string, seed: number): Promise<void> {
  const args = [...TSX, "scripts/generate.ts", "--churn", from, "--out", to, "--seed", String(seed), "--force"];
  const result = await runMeasured("node", args);
  if (result.code !== 0) throw new Error(`churn failed: ${result.stderr.trim()}`);
}

/** Builds `data` into `out` with the real CLI, dropping before the start of day `step`. */
async function buildDay(data: string, out: string, step: number, previous?: string): Promise<ChainBuild> {
  const dropBefore = `${formatDay(step)}T00:00:00Z`;
  const args = [...TSX, "build/index.ts", "--data", data, "--out", out, "--drop-before", dropBefore];
  if (previous) args.push("--previous", previous);
  // A fresh folder each time: the build must not find a history of its own in --out.
  rmSync(out, { recursive: true, force: true });
  const result = await runMeasured("node", args);
  if (result.code !== 0) throw new Error(`build of ${data} failed (${result.code}): ${result.stderr.slice(-2000)}`);
  const history = result.stdout.split("\n").find((line) => line.startsWith("history: ")) ?? "";
  return {
    step,
    wallSeconds: result.wallMs / 1000,
    peakRssMb: result.peakRss / 2 ** 20,
    stages: stagesOf(result.stderr),
    history: history.slice("history: ".length),
  };
}

/** A full copy (no `since`) or a catch-up of a snapshot, at the largest limit; and the token it ends with. */
async function sync(snapshotDir: string, since?: string): Promise<SyncFigures & { token: string }> {
  const walk = await walkFeed(feedInProcess(snapshotDir), feedQuery(SYNC_LIMIT, since));
  return { requests: walk.pageUrls.length, changes: walk.changes, largestBytes: walk.largestBytes, token: walk.token };
}

/** Runs the chain of `steps` days at `showtimes`; leaves the last snapshot in the returned folder. */
export async function measureHistory(
  workDir: string,
  showtimes: number,
  steps: number,
  log: (line: string) => void,
): Promise<{ figures: HistoryFigures; lastSnapshot: string }> {
  const dir = path.join(workDir, `history-${showtimes}`);
  const dataOf = async (k: number) => (k === 0 ? ensureData(workDir, showtimes) : path.join(dir, `data-${k % 2}`));
  // Two folders of each in turn: day k is built from day k - 1's, which is kept until day k + 1.
  const snapshotOf = (k: number) => path.join(dir, `snapshot-${k % 2}`);
  const builds: ChainBuild[] = [];
  let token = "";
  for (let k = 0; k <= steps; k++) {
    if (k > 0) await churn(await dataOf(k - 1), await dataOf(k), k);
    const build = await buildDay(await dataOf(k), snapshotOf(k), k, k > 0 ? snapshotOf(k - 1) : undefined);
    builds.push(build);
    log(`  day ${k}: ${build.wallSeconds.toFixed(1)} s, history ${build.history}`);
    // The token a mirror holds after syncing with the day before the last.
    if (k === steps - 1) token = (await sync(snapshotOf(k))).token;
  }
  const last = snapshotOf(steps);
  const catchUp = await sync(last, token);
  const fullCopy = await sync(last);
  const { bytes: snapshotBytes } = folderSize(last);
  const historyBytes = statSync(path.join(last, "history.pages")).size;
  // The last day again, without and with --previous in turn, into folders of their own.
  const data = await dataOf(steps);
  const fresh = () => buildDay(data, path.join(dir, "snapshot-fresh"), steps);
  const withoutPrevious = [(await fresh()).wallSeconds];
  const again = await buildDay(data, path.join(dir, "snapshot-again"), steps, snapshotOf(steps - 1));
  withoutPrevious.push((await fresh()).wallSeconds);
  const withPrevious = [builds[steps]!.wallSeconds, again.wallSeconds];
  const historyStage = [builds[steps]!.stages.history ?? Number.NaN, again.stages.history ?? Number.NaN];
  for (const name of ["snapshot-fresh", "snapshot-again"])
    rmSync(path.join(dir, name), { recursive: true, force: true });
  return {
    figures: {
      showtimes,
      steps,
      builds,
      fullCopy,
      catchUp,
      historyBytes,
      snapshotBytes,
      withPrevious,
      withoutPrevious,
      historyStage,
    },
    lastSnapshot: last,
  };
}
