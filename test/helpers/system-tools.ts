/**
 * System programs a few tests need, which `npm ci` cannot install. A suite that needs a missing
 * one is skipped and marked with it, and test/reporters/missing-tools.ts names every such skip in
 * one line at the end of the run, with the command that installs what is missing.
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** The Debian package that installs each program (`apt-get install …`). */
export const TOOL_PACKAGES = { chromium: "chromium", "redis-server": "redis-server" } as const;
export type SystemTool = keyof typeof TOOL_PACKAGES;

declare module "vitest" {
  interface TaskMeta {
    /** Set on the tests of a suite skipped because this program is not installed. */
    missingTool?: SystemTool;
    /** Set on the tests of a suite skipped for another reason this machine gives (see skippedBecause). */
    skipReason?: string;
  }
}

/** The program's path, found on PATH as a shell would, or undefined when it is not installed. */
export function findTool(tool: SystemTool): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir || ".", tool);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Suite options: run when the program is installed, else skip and record which program was missing. */
export function whenInstalled(tool: SystemTool): { skip?: boolean; meta?: { missingTool: SystemTool } } {
  return findTool(tool) ? {} : { skip: true, meta: { missingTool: tool } };
}

/** Suite options: skip, naming why, when `reason` is given (the run's last line names it); else run. */
export function skippedBecause(reason: string | undefined): { skip?: boolean; meta?: { skipReason: string } } {
  return reason === undefined ? {} : { skip: true, meta: { skipReason: reason } };
}
