/**
 * Progress for long builds: stage name, count, rate and, when the total is known, a bar.
 * Redrawn in place on a terminal; a line every few seconds otherwise (CI logs, the bench).
 */
const BAR_WIDTH = 24;

export interface Progress {
  stage(name: string): void;
  tick(stage: string, done: number, total?: number): void;
  /** Ends the display; prints how long each stage took. */
  finish(): void;
}

function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

export function createProgress(stream: NodeJS.WriteStream, quiet: boolean): Progress {
  const interactive = stream.isTTY === true;
  const minGapMs = interactive ? 100 : 5000;
  let stageName = "";
  let stageStart = Date.now();
  const times: Array<[string, number]> = [];
  const closeStage = () => {
    if (stageName) times.push([stageName, Date.now() - stageStart]);
  };
  let lastDraw = 0;
  let drawn = false;

  function draw(line: string): void {
    if (quiet) return;
    if (interactive) stream.write(`\r\x1b[2K${line}`);
    else stream.write(`${line}\n`);
    drawn = interactive;
  }

  return {
    stage(name) {
      closeStage();
      if (drawn) stream.write("\n");
      drawn = false;
      stageName = name;
      stageStart = Date.now();
      draw(`· ${name}`);
    },
    tick(stage, done, total) {
      const now = Date.now();
      if (now - lastDraw < minGapMs) return;
      lastDraw = now;
      const rate = done / Math.max(0.001, (now - stageStart) / 1000);
      let bar = "";
      if (total) {
        const filled = Math.round((BAR_WIDTH * Math.min(done, total)) / total);
        bar = `[${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}] `;
      }
      const of = total ? ` / ${formatCount(total)}` : "";
      draw(`· ${stage || stageName} ${bar}${formatCount(done)}${of} (${formatCount(Math.round(rate))}/s)`);
    },
    finish() {
      closeStage();
      stageName = "";
      if (drawn) stream.write("\n");
      drawn = false;
      if (!quiet && times.length > 0)
        stream.write(`stages: ${times.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(", ")}\n`);
    },
  };
}
