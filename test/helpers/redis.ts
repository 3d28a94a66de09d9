/**
 * A real redis-server for tests: started on a free loopback port with persistence off, in a
 * temp folder, stopped (and restartable) by the test. Without the binary the tests skip, named at
 * the end of the run (test/helpers/system-tools.ts; .ci/run installs Debian's redis-server).
 */
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { makeTempDir, removeDir } from "./build-helpers.js";
import { startProcess } from "./child-processes.js";

const BINARY = "redis-server";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RedisProcess {
  url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing is answered. */
  pause(): Promise<void>;
  /** Lets a paused server run again; what it was sent meanwhile is answered. */
  resume(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

/** Starts redis-server; resolves once it accepts connections, rejects if it exits first. */
function launch(port: number, dir: string): Promise<ChildProcess> {
  const child = startProcess(
    BINARY,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`)));
  });
}

function terminate(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    // A paused server handles SIGTERM only once it runs again.
    child.kill("SIGCONT");
    child.kill("SIGTERM");
  });
}

/** Starts redis-server on a free loopback port. */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const dir = makeTempDir("redis");
  let child: ChildProcess | undefined = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await terminate(child);
      child = undefined;
    },
    async start() {
      child ??= await launch(port, dir);
    },
    async pause() {
      child?.kill("SIGSTOP");
    },
    async resume() {
      child?.kill("SIGCONT");
    },
    async dispose() {
      await terminate(child);
      child = undefined;
      removeDir(dir);
    },
  };
}
