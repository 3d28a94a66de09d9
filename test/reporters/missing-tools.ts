/**
 * Ends a run that skipped tests for want of a system program with one line saying how many tests
 * were skipped (vitest's own count, the summary's), which programs are missing and how many of
 * those tests each cost, and the command that installs them; says nothing when nothing was
 * skipped for that reason. Listed after the default reporter, so the line comes after the
 * summary, where it is seen.
 */
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { TOOL_PACKAGES, type SystemTool } from "../helpers/system-tools.js";

export interface Skips {
  /** Every skipped test, whatever the reason: the count vitest's summary gives. */
  total: number;
  /** Those skipped for want of a program, by the program, in the order first met. */
  byTool: Map<SystemTool, number>;
}

export function countSkips(modules: ReadonlyArray<TestModule>): Skips {
  const skips: Skips = { total: 0, byTool: new Map() };
  for (const module of modules) {
    for (const test of module.children.allTests("skipped")) {
      // The summary counts todos apart.
      if (test.options.mode === "todo") continue;
      skips.total++;
      const tool = test.meta().missingTool;
      if (tool) skips.byTool.set(tool, (skips.byTool.get(tool) ?? 0) + 1);
    }
  }
  return skips;
}

/** The one line, or undefined when no test was skipped for a missing program. */
export function missingToolsLine({ total, byTool }: Skips): string | undefined {
  if (byTool.size === 0) return undefined;
  const each = [...byTool].map(([tool, n]) => `${tool} is not installed (${n} tests)`).join(", ");
  const packages = [...new Set([...byTool.keys()].map((tool) => TOOL_PACKAGES[tool]))].join(" ");
  return `skipped ${total} tests: ${each}; install with: apt-get install -y ${packages}`;
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
