/** Runs `npm run keys` as a child process, the way an operator does (tsx, the repository as cwd). */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./build-helpers.js";

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const KEYS_ENTRY = path.join(ROOT, "scripts/keys.ts");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` replaces the environment (PATH kept); undefined keeps this process's. */
export function runKeysCli(args: string[], env?: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", TSX_LOADER, KEYS_ENTRY, ...args],
      { cwd: ROOT, encoding: "utf8", env: env && { PATH: process.env.PATH ?? "", ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}
