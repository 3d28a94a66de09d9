/**
 * `npm start` and `npm run serve` as a user stops them: a signal to the npm process they started
 * (SIGTERM from `kill`, SIGINT from a supervisor) stops the server and frees its port, and a second
 * `npm start` on a taken port fails before it rebuilds snapshot/ (decision: stopping the local server).
 * Real npm, real processes: each run happens in a throwaway project folder whose code and data are
 * links to this repository, so snapshot/ and dist/ are written there.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { makeTempDir, removeDir, ROOT, runBuildCli } from "./helpers/build-helpers.js";
import { startProcess } from "./helpers/child-processes.js";
import { scaled } from "./helpers/deadlines.js";

const LINKED = ["package.json", "node_modules", "api", "build", "scripts", "data", "public", "tsconfig.json"];
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let project: string;
const started: number[] = [];

beforeAll(async () => {
  project = makeTempDir("npm-signals");
  for (const name of LINKED) symlinkSync(path.join(ROOT, name), path.join(project, name));
  const built = await runBuildCli(["--data", "data", "--out", path.join(project, "prebuilt")]);
  expect(built.code, built.stderr).toBe(0);
});

afterEach(() => {
  // A server that outlived its npm must not outlive the test either (only processes this file started).
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, "SIGKILL");
});

afterAll(() => removeDir(project));

/** Every live process whose parent chain leads to `root` (Linux /proc). */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces or parentheses: fields start after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process ended while being read.
    }
  }
  const found: number[] = [];
  let frontier = [root];
  while (frontier.length > 0) {
    const children = [...parentOf].filter(([, parent]) => frontier.includes(parent)).map(([pid]) => pid);
    found.push(...children);
    frontier = children;
  }
  return found;
}

/** True while the process exists and is not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * The processes still running once each had time to end: a process can outlive npm by the moment
 * it takes to exit (esbuild's service ends when its node does), an orphan lives on.
 */
async function survivors(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + scaled(5_000);
  while (Date.now() < deadline && pids.some(isAlive)) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(isAlive);
}

interface NpmRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function runNpm(args: string[], env: Record<string, string> = {}): NpmRun {
  const child = startProcess(npm, args, {
    cwd: project,
    env: { ...process.env, LOG_LEVEL: "silent", npm_config_update_notifier: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  // "exit", not "close": a server that survives npm keeps the pipes open.
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the port once the run printed `listening on http://…:PORT`; rejects if npm exits first. */
async function listeningPort(run: NpmRun): Promise<number> {
  const port = await new Promise<number>((resolve, reject) => {
    const check = () => {
      const match = /listening on http:\/\/[^:\s]+:(\d+)/.exec(run.output());
      if (match) resolve(Number(match[1]));
    };
    run.child.stdout!.on("data", check);
    void run.exited.then(() => reject(new Error(`npm exited before listening:\n${run.output()}`)));
  });
  started.push(run.child.pid!, ...descendants(run.child.pid!));
  return port;
}

/** "stuck" when npm is still running long after the signal (it waits on a child that never got it). */
function exitedOrStuck(run: NpmRun): Promise<"exited" | "stuck"> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<"stuck">((resolve) => (timer = setTimeout(() => resolve("stuck"), scaled(20_000))));
  return Promise.race([run.exited.then(() => "exited" as const), stuck]).finally(() => clearTimeout(timer));
}

/** True when this process can bind the port: nothing listens there any more. */
function portIsFree(port: number): Promise<boolean> {
  const probe: Server = createServer();
  return new Promise((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

const COMMANDS = {
  "npm start": () => runNpm(["start"], { PORT: "0" }),
  "npm run serve": () =>
    runNpm(["run", "serve", "--", "--snapshot", "prebuilt", "--access", "data/demo-access.json", "--port", "0"]),
};

describe.each(Object.entries(COMMANDS))("%s", (_name, start) => {
  test.each(["SIGTERM", "SIGINT"] as const)(
    "%s to the npm process stops the server and frees its port",
    async (signal) => {
      const run = start();
      const port = await listeningPort(run);
      const tree = descendants(run.child.pid!);
      expect(tree.length).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      run.child.kill(signal);
      expect(await exitedOrStuck(run)).toBe("exited");

      expect(await survivors(tree)).toEqual([]);
      expect(await portIsFree(port)).toBe(true);
    },
  );
});

test("npm start on a taken port fails with one line naming it, before building snapshot/", async () => {
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const { port } = blocker.address() as AddressInfo;
  rmSync(path.join(project, "snapshot"), { recursive: true, force: true });
  try {
    const run = runNpm(["start"], { PORT: String(port) });
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toContain(
      `start: port ${port} on 127.0.0.1 is already in use (another server?): choose another with PORT=N\n`,
    );
    expect(existsSync(path.join(project, "snapshot"))).toBe(false);
  } finally {
    blocker.close();
  }
});
