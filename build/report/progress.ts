/**
 * Progress for long builds: stage name, count, total (estimated while validation has not read
 * every file), rate, a bar and the time left. Redrawn in place on a terminal; a line every few
 * seconds otherwise (CI logs, the bench). A stage's last line shows its true count and total
 * whatever the redraws skipped (decision: long builds); each stage's time is printed at the end.
 */
const BAR_WIDTH = 24;

export interface Progress {
  /** A stage begins; `label` (default: the name) is what is drawn, such as the market it runs for. */
  stage(name: string, label?: string): void;
  tick(stage: string, done: number, total?: number, estimated?: boolean): void;
  /** Ends the display; prints how long each stage took. */
  finish(): void;
}

function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${String(Math.ceil(seconds % 60)).padStart(2, "0")} s`;
}

export function createProgress(
  stream: Pick<NodeJS.WriteStream, "write" | "isTTY">,
  quiet: boolean,
  clock: () => number = Date.now,
): Progress {
  const interactive = stream.isTTY === true;
  const minGapMs = interactive ? 100 : 5000;
  let stageName = "";
  let stageStart = clock();
  // A stage run once per market is timed as one, over every market.
  const times = new Map<string, number>();
  const closeStage = () => {
    if (stageName) times.set(stageName, (times.get(stageName) ?? 0) + clock() - stageStart);
  };
  let lastDraw = 0;
  let drawn = false;
  /** The stage's latest count, and whether the screen shows it as it will stay (drawn, total exact). */
  let latest: { stage: string; done: number; total?: number; estimated: boolean; shown: boolean } | undefined;

  function draw(line: string): void {
    if (quiet) return;
    if (interactive) stream.write(`\r\x1b[2K${line}`);
    else stream.write(`${line}\n`);
    drawn = interactive;
  }

  function line(stage: string, done: number, total: number | undefined, estimated: boolean, now: number): string {
    const rate = done / Math.max(0.001, (now - stageStart) / 1000);
    let bar = "";
    let left = "";
    if (total) {
      const filled = Math.round((BAR_WIDTH * Math.min(done, total)) / total);
      bar = `[${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}] `;
      if (rate > 0 && done < total) left = `, ${formatSeconds((total - done) / rate)} left`;
    }
    const of = total ? ` / ${estimated ? "~" : ""}${formatCount(total)}` : "";
    return `· ${stage || stageName} ${bar}${formatCount(done)}${of} (${formatCount(Math.round(rate))}/s${left})`;
  }

  /**
   * Draws the stage's latest count if the screen does not show it; at its end, it is an estimated total's true
   * value.
   */
  function drawFinalCount(): void {
    if (latest && !latest.shown) {
      const total = latest.estimated && latest.total ? latest.done : latest.total;
      draw(line(latest.stage, latest.done, total, false, clock()));
    }
    latest = undefined;
  }

  return {
    stage(name, label = name) {
      drawFinalCount();
      closeStage();
      if (drawn) stream.write("\n");
      drawn = false;
      stageName = name;
      stageStart = clock();
      draw(`· ${label}`);
    },
    tick(stage, done, total, estimated = false) {
      const now = clock();
      latest = { stage, done, total, estimated, shown: false };
      if (now - lastDraw < minGapMs) return;
      lastDraw = now;
      latest.shown = !estimated;
      draw(line(stage, done, total, estimated, now));
    },
    finish() {
      drawFinalCount();
      closeStage();
      stageName = "";
      if (drawn) stream.write("\n");
      drawn = false;
      if (!quiet && times.size > 0)
        stream.write(`stages: ${[...times].map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(", ")}\n`);
    },
  };
}
