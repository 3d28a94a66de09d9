/**
 * Ends a run that skipped tests for want of a system program with one line saying which, how many
 * and the command that installs them; says nothing when nothing was skipped for that reason.
 * Listed after the default reporter, so the line comes after the summary, where it is seen.
 */
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { TOOL_PACKAGES, type SystemTool } from "../helpers/system-tools.js";

/** Skipped tests by the program they lacked, in the order first met. */
export function skipsByTool(modules: ReadonlyArray<TestModule>): Map<SystemTool, number> {
  const skips = new Map<SystemTool, number>();
  for (const module of modules) {
    for (const test of module.children.allTests("skipped")) {
      const tool = test.meta().missingTool;
      if (tool) skips.set(tool, (skips.get(tool) ?? 0) + 1);
    }
  }
  return skips;
}

/** The one line, or undefined when no test was skipped for a missing program. */
export function missingToolsLine(skips: Map<SystemTool, number>): string | undefined {
  if (skips.size === 0) return undefined;
  const total = [...skips.values()].reduce((sum, n) => sum + n, 0);
  const each = [...skips].map(([tool, n]) => `${tool} is not installed (${n} tests)`).join(", ");
  const packages = [...new Set([...skips.keys()].map((tool) => TOOL_PACKAGES[tool]))].join(" ");
  return `skipped ${total} tests: ${each}; install with: apt-get install -y ${packages}`;
}

export default class MissingToolsReporter implements Reporter {
  private log: (line: string) => void = (line) => process.stdout.write(`${line}\n`);

  onInit(vitest: Vitest): void {
    this.log = (line) => vitest.logger.log(line);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const line = missingToolsLine(skipsByTool(modules));
    if (line) this.log(line);
  }
}
