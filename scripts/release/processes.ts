/** The child processes a release runs: the project's own commands and the Vercel CLI. */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository: where the build and diff commands live. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// An absolute loader URL, so the commands run from any working directory.
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export interface Outcome {
  /** Exit status; 128 + n when ended by a signal, as a shell says. */
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Which streams reach the release's own as they come (the rest is kept for the release to read). */
  passThrough?: "stderr" | "both" | "none";
}

/** A command that could not be started at all (not installed): exit 2, one line. */
export class MissingCommandError extends Error {}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

export function runProcess(command: string, args: string[], options: RunOptions): Promise<Outcome> {
  const pass = options.passThrough ?? "none";
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", pass === "both" ? "inherit" : "pipe", pass === "none" ? "pipe" : "inherit"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new MissingCommandError(`${command} is not installed or not on PATH (run npm ci first)`)
          : error,
      );
    });
    child.on("close", (code, signal) => {
      resolve({
        code: code ?? 128 + (SIGNALS[signal ?? ""] ?? 0),
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}

/** Runs one of the repository's command-line entries (build/index.ts, scripts/diff.ts): the same as npm run. */
export function runEntry(entry: string, args: string[], options: Omit<RunOptions, "cwd">): Promise<Outcome> {
  return runProcess(process.execPath, ["--import", TSX_LOADER, entry, ...args], { ...options, cwd: ROOT });
}

/** The last lines of a command's output, for a failure message. */
export function tail(text: string, lines = 15): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
