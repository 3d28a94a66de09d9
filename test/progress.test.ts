/**
 * The build's progress display (decision: long builds): stage, done / total (estimated while
 * validation has not read every file), rate and time left, redrawn at most every few seconds in a
 * log; each stage's time at the end.
 */
import { expect, test } from "vitest";
import { createProgress } from "../build/report/progress.js";

function fakeLog() {
  const lines: string[] = [];
  let now = 0;
  const stream = {
    isTTY: false,
    write: (text: string) => {
      lines.push(text);
      return true;
    },
  };
  return { lines, stream, advance: (ms: number) => (now += ms), clock: () => now };
}

test("a line per tick in a log: count, total, rate and time left; stage times at the end", () => {
  const log = fakeLog();
  const progress = createProgress(log.stream, false, log.clock);
  progress.stage("validate");
  log.advance(10_000);
  progress.tick("validate", 500_000, 2_000_000, true);
  log.advance(1_000); // within the redraw gap: not drawn
  progress.tick("validate", 550_000, 2_000_000, true);
  log.advance(10_000);
  progress.stage("render");
  log.advance(90_000);
  progress.tick("render", 300, 400);
  log.advance(30_000);
  progress.finish();
  expect(log.lines).toEqual([
    "· validate\n",
    "· validate [██████░░░░░░░░░░░░░░░░░░] 500,000 / ~2,000,000 (50,000/s, 30 s left)\n",
    // The stage's true count, which the redraw gap held back.
    "· validate [████████████████████████] 550,000 / 550,000 (26,190/s)\n",
    "· render\n",
    "· render [██████████████████░░░░░░] 300 / 400 (3/s, 30 s left)\n",
    "stages: validate 21.0 s, render 120.0 s\n",
  ]);
});

test("without a total: count and rate only; time left in minutes past a minute", () => {
  const log = fakeLog();
  const progress = createProgress(log.stream, false, log.clock);
  progress.stage("load");
  log.advance(6_000);
  progress.tick("load", 60);
  log.advance(6_000);
  progress.tick("load", 120, 100_000);
  expect(log.lines.slice(1)).toEqual([
    "· load 60 (10/s)\n",
    "· load [░░░░░░░░░░░░░░░░░░░░░░░░] 120 / 100,000 (10/s, 166 min 28 s left)\n",
  ]);
});

test("quiet: nothing at all", () => {
  const log = fakeLog();
  const progress = createProgress(log.stream, true, log.clock);
  progress.stage("load");
  log.advance(6_000);
  progress.tick("load", 1, 2);
  progress.finish();
  expect(log.lines).toEqual([]);
});

test.each([
  [
    "a log",
    false,
    ["· validate\n", "· validate 3 / ~259 (1/s, 8 min 32 s left)\n", "· validate 259 / 259 (43/s)\n", "· render\n"],
  ],
  [
    "a terminal",
    true,
    [
      "\r\x1b[2K· validate",
      "\r\x1b[2K· validate 3 / ~259 (1/s, 8 min 32 s left)",
      "\r\x1b[2K· validate 259 / 259 (43/s)",
      "\n",
      "\r\x1b[2K· render",
    ],
  ],
])(
  "in %s, a stage's last line shows its true count and total, however its redraws were spaced",
  (_where, isTTY, lines) => {
    const log = fakeLog();
    const progress = createProgress({ ...log.stream, isTTY }, false, log.clock);
    progress.stage("validate");
    log.advance(6_000);
    progress.tick("validate", 3, 259, true);
    // Both within the redraw gap: not drawn when they come.
    log.advance(10);
    progress.tick("validate", 120, 261, true);
    log.advance(10);
    progress.tick("validate", 259, 259, true);
    progress.stage("render");
    expect(log.lines.map((line) => line.replace(/\[[█░]+\] /, ""))).toEqual(lines);
  },
);

test("at the end of the build, the last stage's line shows its true count, then the stage times", () => {
  const log = fakeLog();
  const progress = createProgress(log.stream, false, log.clock);
  progress.stage("render");
  log.advance(6_000);
  progress.tick("render", 10, 400);
  log.advance(1_000);
  progress.tick("render", 400, 400);
  progress.finish();
  expect(log.lines).toEqual([
    "· render\n",
    "· render [█░░░░░░░░░░░░░░░░░░░░░░░] 10 / 400 (2/s, 3 min 54 s left)\n",
    "· render [████████████████████████] 400 / 400 (57/s)\n",
    "stages: render 7.0 s\n",
  ]);
});
