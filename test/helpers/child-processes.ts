/**
 * Every process a test starts, started here: each leads a process group of its own, so the group
 * (its children, their children) can be ended together, and none outlives the test file that started
 * it. A process started by a test that fails or times out is ended, group and all, at once; every
 * other one still running when its file is over (setup-children.ts), and all of them when the test
 * process exits.
 *
 * The command-line entries run as their bundles (entry-bundles.ts) unless a test asks for tsx, as
 * npm's scripts run them: the tests that pin what an operator runs.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inject, onTestFailed } from "vitest";
import { scaled } from "./deadlines.js";
import type { BundledEntry } from "./entry-bundles.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** Started and not yet ended by this module. */
const started = new Set<ChildProcess>();

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * Kills the child's process group. Once the child has exited its group id is free for another
 * process only when no member is left, so then the group is killed only when no process has that id.
 */
function killGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (!running(child) && existsSync(`/proc/${pid}`)) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Nothing left in the group.
  }
}

/** The groups among `groups` that a running process belongs to (from Linux's /proc; elsewhere none is known). */
function groupsWithMembers(groups: Set<number>): Set<number> {
  const alive = new Set<number>();
  if (groups.size === 0) return alive;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return alive;
  }
  for (const pid of pids) {
    try {
      // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after its last ")".
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state !== "Z" && groups.has(Number(group))) alive.add(Number(group));
    } catch {
      // Gone while being read.
    }
  }
  return alive;
}

/**
 * Ends the children's process groups and waits until no process of them is left: the children's own
 * exits are events, their children's deaths are only seen in /proc, a moment later. A group still
 * found after a while is left to the operating system (its id may have been given to another).
 */
async function endProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) started.delete(child);
  const exits = children.filter(running).map((child) => new Promise((resolve) => child.once("exit", resolve)));
  for (const child of children) killGroup(child);
  await Promise.all(exits);
  const groups = new Set(children.flatMap((child) => (child.pid === undefined ? [] : [child.pid])));
  const until = Date.now() + scaled(5_000);
  while (groupsWithMembers(groups).size > 0 && Date.now() < until) await sleep(10);
}

/** Ends the child's process group: the child, its children and theirs. */
export function endProcess(child: ChildProcess): Promise<void> {
  return endProcesses([child]);
}

/** Ends every process started and not ended yet (the file's end; setup-children.ts). */
export function endAllProcesses(): Promise<void> {
  return endProcesses([...started]);
}

process.once("exit", () => {
  for (const child of started) killGroup(child);
});

/** `spawn`, in a process group of its own, ended with the test (or the file) that started it. */
export function startProcess(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  started.add(child);
  try {
    // Vitest's current test: the one that started it, or, among tests run concurrently, maybe another
    // of them, which failed too then. Passed or not, the file's end ends it (setup-children.ts).
    onTestFailed(() => endProcess(child));
  } catch {
    // Started by a hook or at the top level.
  }
  return child;
}

export interface Outcome {
  /** Exit status; null when ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  /** The whole environment of the child (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed. */
  input?: string;
}

/** Starts a process and collects its output; resolves when it has exited and its streams are closed. */
export function runProcess(command: string, args: readonly string[], options: RunOptions = {}): Promise<Outcome> {
  const child = startProcess(command, args, {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  child.stdin?.end(options.input);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout!.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      }),
    );
  });
}

/** The folder of this run's bundles (test/global-setup.ts). */
export function bundlesFolder(): string {
  const dir = inject("entryBundles");
  if (!dir) throw new Error("no bundled entries: run the tests with vitest.config.ts, whose globalSetup bundles them");
  return dir;
}

/** The preload that lets a bundled entry start other entries as bundles too (bundled-children.mjs). */
export function bundlePreload(): string {
  return pathToFileURL(path.join(bundlesFolder(), "bundled-children.mjs")).href;
}

/**
 * Node's arguments that run a repository entry: its bundle (the default), or under tsx, as its npm
 * script does (`via: "tsx"`), for the tests that pin what an operator runs.
 */
export function entryArgs(entry: BundledEntry, via: "bundle" | "tsx" = "bundle"): string[] {
  if (via === "tsx") return ["--import", TSX_LOADER, path.join(ROOT, entry)];
  const bundle = path.join(bundlesFolder(), entry.replace(/\.(ts|mjs)$/, ".mjs"));
  return ["--import", bundlePreload(), bundle];
}

/** Runs a repository entry (`node ENTRY ARGS`) and collects its output. */
export function runEntry(
  entry: BundledEntry,
  args: readonly string[],
  options: RunOptions & { via?: "bundle" | "tsx" } = {},
): Promise<Outcome> {
  return runProcess(process.execPath, [...entryArgs(entry, options.via), ...args], options);
}
