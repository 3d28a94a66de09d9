/**
 * Load generation with wrk (a C program, so it does not eat the cores it measures with): each run
 * requests a list of paths in turn at 50 connections, and reads the server's CPU time from /proc
 * before and after. CPU per request is the figure that counts on a shared machine; requests/s and
 * latency are reported beside it.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cpuMicros } from "./cpu.js";

const SCRIPT = fileURLToPath(new URL("./rotate.lua", import.meta.url));
const POST_SCRIPT = fileURLToPath(new URL("./rotate-post.lua", import.meta.url));

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  /** The server's CPU time per request served, in microseconds. */
  cpuPerRequestUs: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  pid: number;
  paths: string[];
  /** POSTed in turn to the URL's path instead of GETs of `paths` (one line each: no newline inside). */
  bodies?: string[];
  headers?: Record<string, string>;
  connections?: number;
  seconds?: number;
  /** Where the path list is written for wrk. */
  workDir: string;
  /** Seconds of the same load, unmeasured, first: compiled code and warm caches, as in service. */
  warmupSeconds?: number;
}

function wrk(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("wrk", args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error)
        reject(
          new Error(
            `wrk failed: ${
              (error as NodeJS.ErrnoException).code === "ENOENT"
                ? "wrk is not installed (apt-get install wrk)"
                : stderr || error.message
            }`,
          ),
        );
      else resolve(stdout);
    });
  });
}

/** Checks once that wrk is there, before minutes of building. */
export async function checkLoadGenerator(): Promise<void> {
  await wrk(["--version"]).catch((error: Error) => {
    if (/not installed/.test(error.message)) throw error;
  });
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const list = path.join(options.workDir, `paths-${process.pid}.txt`);
  writeFileSync(list, `${(options.bodies ?? options.paths).join("\n")}\n`);
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
  const args = (seconds: number) => [
    "-t1",
    `-c${options.connections ?? 50}`,
    `-d${seconds}s`,
    "--timeout",
    "10s",
    ...headers,
    "-s",
    options.bodies ? POST_SCRIPT : SCRIPT,
    options.bodies ? `${options.url}${options.paths[0]}` : options.url,
    "--",
    list,
  ];
  if ((options.warmupSeconds ?? 2) > 0) await wrk(args(options.warmupSeconds ?? 2));
  const before = cpuMicros(options.pid);
  const output = await wrk(args(options.seconds ?? 5));
  const cpu = cpuMicros(options.pid) - before;
  const line = output
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"));
  if (!line) throw new Error(`wrk printed no summary:\n${output}`);
  const r = JSON.parse(line) as {
    requests: number;
    seconds: number;
    errors: number;
    non2xx: number;
    p50Us: number;
    p99Us: number;
  };
  return {
    requests: r.requests,
    requestsPerSecond: r.requests / r.seconds,
    cpuPerRequestUs: r.requests > 0 ? cpu / r.requests : Number.NaN,
    p50Ms: r.p50Us / 1000,
    p99Ms: r.p99Us / 1000,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}
