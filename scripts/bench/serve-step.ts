/** Bench steps against a running server: load against the ceiling, memory sweep, cold start. */
import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import path from "node:path";
import { BENCH_KEY, benchAccessText } from "./access.js";
import { runLoad, type LoadResult } from "./load.js";
import { procMemory, runMeasured, spawnUntil, stop } from "./processes.js";
import { benchUsageDir, serverArgs } from "./server.js";
import type { Scenario } from "./scenario.js";

const auth = { authorization: `Bearer ${BENCH_KEY}` };
/** What an MCP client sends with each message (decision: MCP). */
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** The headers a scenario's requests carry to our server. */
export const headersOf = (scenario: Scenario) => ({
  ...(scenario.authorized ? auth : {}),
  ...(scenario.bodies ? MCP_HEADERS : {}),
});

export interface ScenarioFigures {
  name: string;
  ours: LoadResult;
  ceiling: LoadResult;
  /** Ceiling CPU per request ÷ ours: 1 is as cheap as a bare server sending the same bytes. */
  cpuRatio: number;
  /**
   * For a scenario with a relative target, its CPU per request ÷ the other's in each round measured
   * after the pass against the ceiling, the two back to back (paired-rounds.ts).
   */
  pairedRatios?: number[];
}

/** An access file whose one organization is entitled and effectively unlimited. */
export function writeBenchAccess(dir: string): string {
  const file = path.join(dir, "bench-access.json");
  writeFileSync(file, benchAccessText());
  return file;
}

/** Headers the HTTP layer writes itself, per connection or per response. */
const TRANSPORT_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/**
 * Whether the ceiling must send a header as ours did: not the transport's own, but `Connection:
 * close`, which ours sends on a refusal (decision: slow requests) and the same bytes include: the
 * ceiling then closes the connection too, and both pay the client's reconnecting.
 */
const isKept = ([name, value]: [string, unknown]) =>
  !TRANSPORT_HEADERS.has(name) || (name === "connection" && value === "close");

/**
 * One raw response as the load generator receives it: no Accept-Encoding, so identity bytes; a
 * POST when given a body.
 */
function rawRequest(
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  agent: Agent,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const method = body === undefined ? "GET" : "POST";
    const sent = httpRequest(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const kept = Object.entries(res.headers).filter(isKept);
        resolve({
          status: res.statusCode!,
          headers: Object.fromEntries(kept.map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks),
        });
      });
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

/** Each request of a scenario, as the key the ceiling answers it by, with its path and body. */
function requestsOf(scenario: Scenario): Array<{ key: string; path: string; body?: string }> {
  if (scenario.bodies)
    return scenario.bodies.map((body) => ({
      key: `POST ${scenario.paths[0]} ${body}`,
      path: scenario.paths[0]!,
      body,
    }));
  return scenario.paths.map((p) => ({ key: ceilingPath(scenario, p), path: p }));
}

/** A tool error is answered 200 too: a scenario measuring one would measure the wrong thing. */
function checkToolResult(path: string, body: Buffer): void {
  const result = JSON.parse(body.toString("utf8")).result;
  if (!result || result.isError) throw new Error(`${path} answered ${body.toString().slice(0, 200)}`);
}

/** The ceiling's path for a scenario's path: 401s are recorded apart from the authorized answers. */
const ceilingPath = (scenario: Scenario, p: string) =>
  scenario.authorized ? p : `${p}${p.includes("?") ? "&" : "?"}unauthorized`;

/**
 * Records what our server answers, headers included, so the ceiling answers the same bytes: the
 * load generator then parses the same responses from both, and the ratio measures our work alone.
 * One JSON line per response, written as it comes: the whole record as one JSON text outgrew the
 * longest string V8 makes (512 MiB) at 2M showtimes, and the bench died with "Invalid string length".
 */
async function recordResponses(base: string, scenarios: Scenario[], file: string): Promise<void> {
  const fd = openSync(file, "w");
  // Connections kept alive, as the load generator's are: a request asking to close would be answered
  // `Connection: close` every time, and the ceiling would then close after each answer.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const scenario of scenarios) {
      const headers = headersOf(scenario);
      for (const { key, path: p, body } of requestsOf(scenario)) {
        const response = await rawRequest(base + p, headers, body, agent);
        if (scenario.authorized && response.status !== 200)
          throw new Error(`${p} answered ${response.status}: ${response.body.toString().slice(0, 200)}`);
        if (body !== undefined) checkToolResult(p, response.body);
        writeSync(fd, `${JSON.stringify({ key, ...response, body: response.body.toString("base64") })}\n`);
      }
    }
  } finally {
    closeSync(fd);
    agent.destroy();
  }
}

/** Runs every scenario against our server and the ceiling, alternating, in one run. */
export async function compareWithCeiling(
  ours: { url: string; pid: number },
  workDir: string,
  scenarios: Scenario[],
  seconds: number,
): Promise<ScenarioFigures[]> {
  const file = path.join(workDir, "ceiling-responses.jsonl");
  await recordResponses(ours.url, scenarios, file);
  const ceiling = await spawnUntil("node", ["scripts/bench/ceiling-server.mjs", file], /listening on/);
  const ceilingUrl = /http:\/\/\S+/.exec(ceiling.line)![0];
  const figures: ScenarioFigures[] = [];
  try {
    for (const scenario of scenarios) {
      process.stderr.write(`· ${scenario.name}\n`);
      const headers = headersOf(scenario);
      // A server in service is warm: its caches hold what the traffic reads. Uncached scenarios read
      // every block of the snapshot, so they warm up longer before the measured run.
      const warmupSeconds = scenario.uncached ? 6 : 2;
      const oursResult = await runLoad({
        url: ours.url,
        pid: ours.pid,
        paths: scenario.paths,
        bodies: scenario.bodies,
        headers,
        seconds,
        workDir,
        warmupSeconds,
      });
      const ceilingResult = await runLoad({
        url: ceilingUrl,
        pid: ceiling.child.pid!,
        paths: scenario.paths.map((p) => ceilingPath(scenario, p)),
        bodies: scenario.bodies,
        headers: scenario.bodies ? MCP_HEADERS : undefined,
        seconds,
        workDir,
        warmupSeconds,
      });
      figures.push({
        name: scenario.name,
        ours: oursResult,
        ceiling: ceilingResult,
        cpuRatio: ceilingResult.cpuPerRequestUs / oursResult.cpuPerRequestUs,
      });
    }
  } finally {
    await stop(ceiling.child);
  }
  return figures;
}

async function getJson(url: string): Promise<any> {
  const response = await fetch(url, { headers: auth });
  return response.json();
}

/** Requests every page of every list and every get-one, then reads the server's RSS. */
export async function sweepMemory(base: string, pid: number): Promise<{ requests: number; rssMb: number }> {
  let requests = 0;
  const fetchAll = async (first: string, onRecord?: (r: any) => Promise<void>) => {
    let url: string | null = first;
    while (url) {
      const page = await getJson(base + url);
      requests++;
      for (const record of page.data) if (onRecord) await onRecord(record);
      const cursor: string | null = page.pagination.nextCursor;
      url = cursor ? `${first}&cursor=${cursor}` : null;
    }
  };
  await fetchAll("/v1/showtimes?limit=100");
  await fetchAll("/v1/attributes?limit=100");
  for (const resource of ["cinemas", "films"]) {
    await fetchAll(`/v1/${resource}?limit=100`, async (record) => {
      await getJson(`${base}/v1/${resource}/${encodeURIComponent(record.id)}`);
      requests++;
    });
  }
  return { requests, rssMb: procMemory(pid, "VmRSS") / 2 ** 20 };
}

/** Median time from spawning a server (`args` given the port) to its first 200 for `path`. */
async function coldStart(
  args: (port: number) => string[],
  path: string,
  headers: Record<string, string>,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const started = performance.now();
  // Port 0: the system picks a free one and the server prints it (a random fixed port could be taken).
  const server = await spawnUntil("node", args(0), /listening on/, { LOG_LEVEL: "silent", ...env });
  const base = /http:\/\/\S+/.exec(server.line)![0];
  let status = 0;
  while (status !== 200) {
    status = await fetch(`${base}${path}`, { headers }).then(
      (r) => r.status,
      () => 0,
    );
  }
  const elapsed = performance.now() - started;
  await stop(server.child);
  return elapsed;
}

/** A bare node:http server answering 200 at once: how long Node itself takes to start here. */
const BARE_SERVER = (port: number) => [
  "-e",
  `const server = require("node:http").createServer((q, s) => s.end("{}")).listen(${port}, "127.0.0.1", ` +
    `() => console.log("listening on http://127.0.0.1:" + server.address().port))`,
];

export interface ColdStart {
  oursMs: number;
  bareMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median cold start of the bundled server, and of a bare Node server measured alternately with it. */
async function medianColdStarts(
  snapshotDir: string,
  accessFile: string,
  env: NodeJS.ProcessEnv,
  runs: number,
): Promise<ColdStart> {
  const ours = (port: number) => serverArgs(snapshotDir, accessFile, port);
  const oursTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    oursTimes.push(await coldStart(ours, "/v1/films", auth, { USAGE_DIR: benchUsageDir(snapshotDir), ...env }));
    bareTimes.push(await coldStart(BARE_SERVER, "/", {}, env));
  }
  return { oursMs: median(oursTimes), bareMs: median(bareTimes) };
}

/**
 * Cold starts in this environment and, when NODE_EXTRA_CA_CERTS is set, again without it: Node 20
 * parses that CA bundle before running any code (about 85 ms per process on the bench machine), a
 * cost of the machine rather than of the server, which makes no outbound TLS call unless Redis does.
 */
export async function measureColdStart(
  snapshotDir: string,
  accessFile: string,
  runs = 7,
): Promise<{ asIs: ColdStart; withoutExtraCa?: ColdStart }> {
  const asIs = await medianColdStarts(snapshotDir, accessFile, {}, runs);
  if (!process.env.NODE_EXTRA_CA_CERTS) return { asIs };
  return {
    asIs,
    withoutExtraCa: await medianColdStarts(snapshotDir, accessFile, { NODE_EXTRA_CA_CERTS: undefined }, runs),
  };
}

/** Median import time and time to first 200 of the bundled Vercel function, in fresh processes. */
export async function measureFunctionColdStart(snapshotDir: string, accessJson: string, runs = 5) {
  const results: { importMs: number; firstResponseMs: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await runMeasured(
      "node",
      ["scripts/bench/function-harness.mjs", path.resolve("dist/v1.mjs"), "/v1/films"],
      {
        env: { SNAPSHOT_DIR: snapshotDir, ACCESS_JSON: accessJson, BENCH_KEY, LOG_LEVEL: "silent" },
      },
    );
    results.push(JSON.parse(run.stdout.trim().split("\n").pop()!));
  }
  return {
    importMs: median(results.map((r) => r.importMs)),
    firstResponseMs: median(results.map((r) => r.firstResponseMs)),
  };
}
