/**
 * Runs `npm run keys` as a child process with the repository as cwd: its bundle (entry-bundles.ts),
 * or under tsx as the npm script runs it (`via: "tsx"`).
 */
import { runEntry } from "./child-processes.js";

export interface CliResult {
  /** The exit status; -1 when a signal ended it. */
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` replaces the environment (PATH kept); undefined keeps this process's. */
export async function runKeysCli(
  args: string[],
  env?: Record<string, string>,
  via: "bundle" | "tsx" = "bundle",
): Promise<CliResult> {
  const run = await runEntry("scripts/keys.ts", args, {
    env: env ? { PATH: process.env.PATH ?? "", ...env } : process.env,
    via,
  });
  return { code: run.code ?? -1, stdout: run.stdout, stderr: run.stderr };
}
