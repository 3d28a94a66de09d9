/**
 * Ends a run that skipped tests with one line saying how many tests were skipped (vitest's own
 * count, the summary's) and why, every skip named: which programs are missing and how many tests
 * each cost, with the command that installs them; each other reason a suite gave (skippedBecause)
 * and its count; and how many were skipped with no reason given. Says nothing when nothing was
 * skipped. Listed after the default reporter, so the line comes after the summary, where it is seen.
 */
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { TOOL_PACKAGES, type SystemTool } from "../helpers/system-tools.js";

export interface Skips {
  /** Every skipped test, whatever the reason: the count vitest's summary gives. */
  total: number;
  /** Those skipped for want of a program, by the program, in the order first met. */
  byTool: Map<SystemTool, number>;
  /** Those skipped for another reason a suite gave, by the reason, in the order first met. */
  byReason?: Map<string, number>;
}

export function countSkips(modules: ReadonlyArray<TestModule>): Skips {
  const skips: Skips = { total: 0, byTool: new Map(), byReason: new Map() };
  for (const module of modules) {
    for (const test of module.children.allTests("skipped")) {
      // The summary counts todos apart.
      if (test.options.mode === "todo") continue;
      skips.total++;
      const { missingTool: tool, skipReason: reason } = test.meta();
      if (tool) skips.byTool.set(tool, (skips.byTool.get(tool) ?? 0) + 1);
      else if (reason) skips.byReason!.set(reason, (skips.byReason!.get(reason) ?? 0) + 1);
    }
  }
  return skips;
}

const tests = (n: number) => `${n} ${n === 1 ? "test" : "tests"}`;

/** The one line, or undefined when no test was skipped. */
export function missingToolsLine({ total, byTool, byReason = new Map() }: Skips): string | undefined {
  if (total === 0) return undefined;
  const named = [...byTool.values(), ...byReason.values()].reduce((sum, n) => sum + n, 0);
  const each = [
    ...[...byTool].map(([tool, n]) => `${tool} is not installed (${tests(n)})`),
    ...[...byReason].map(([reason, n]) => `${reason} (${tests(n)})`),
    ...(total > named ? [`${tests(total - named)} with no reason given`] : []),
  ].join(", ");
  const packages = [...new Set([...byTool.keys()].map((tool) => TOOL_PACKAGES[tool]))].join(" ");
  return `skipped ${tests(total)}: ${each}${packages ? `; install with: apt-get install -y ${packages}` : ""}`;
}

export default class MissingToolsReporter implements Reporter {
  private log: (line: string) => void = (line) => process.stdout.write(`${line}\n`);

  onInit(vitest: Vitest): void {
    this.log = (line) => vitest.logger.log(line);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const line = missingToolsLine(countSkips(modules));
    if (line) this.log(line);
  }
}
