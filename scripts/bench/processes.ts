/** Child processes for the bench: spawn, wait for a line, sample peak and current RSS from /proc. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

/** Reads a field such as VmRSS or VmHWM (in bytes) of a live process, or 0 when it is gone. */
export function procMemory(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export interface RunResult {
  code: number | null;
  wallMs: number;
  peakRss: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion, sampling its peak RSS (VmHWM) until it exits. */
export function runMeasured(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; echo?: boolean } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let peakRss = 0;
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
      if (options.echo) process.stderr.write(d);
    });
    const timer = setInterval(() => (peakRss = Math.max(peakRss, procMemory(child.pid!, "VmHWM"))), 50);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearInterval(timer);
      resolve({ code, wallMs: performance.now() - started, peakRss, stdout, stderr });
    });
  });
}

/** This process's environment with `overrides` applied; an override set to undefined removes the variable. */
export function mergeEnv(overrides: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env, ...overrides };
  for (const [name, value] of Object.entries(overrides)) if (value === undefined) delete env[name];
  return env;
}

/** Spawns a long-running process and resolves once a line of its stdout matches. */
export function spawnUntil(
  command: string,
  args: string[],
  pattern: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: mergeEnv(env), stdio: ["ignore", "pipe", "inherit"] });
    let buffered = "";
    const onData = (d: Buffer) => {
      buffered += d;
      const line = buffered.split("\n").find((l) => pattern.test(l));
      if (line) {
        child.stdout!.off("data", onData);
        child.stdout!.resume();
        resolve({ child, line });
      }
    };
    child.stdout!.on("data", onData);
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${command} exited with ${code} before it was ready`)));
  });
}

/** Stops a child and waits for it to go. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await gone;
}
