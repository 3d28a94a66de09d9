/**
 * The build's progress display (decision: long builds): stage, done / total (estimated while
 * validation has not read every file), rate and time left, redrawn at most every few seconds in a
 * log; each stage's time at the end.
 */
import { expect, test } from "vitest";
import { createProgress } from "../build/progress.js";

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
