/** The peer: json-server serving the same dataset from its own JSON file, with its own pagination. */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { runLoad, type LoadResult } from "./load.js";
import { spawnUntil, stop } from "./processes.js";

function readRecords(dir: string): unknown[] {
  const records: unknown[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), "utf8");
    if (entry.name.endsWith(".ndjson")) for (const line of text.split("\n")) line.trim() && records.push(JSON.parse(line));
    else if (entry.name.endsWith(".json")) records.push(...(JSON.parse(text) as unknown[]));
  }
  return records;
}

export interface PeerFigures {
  page: LoadResult;
  getOne: LoadResult;
}

/** A port free now, for json-server, which cannot be told to pick one and say which. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/**
 * Resolves once the server answers a request, i.e. once what was queued before it is done. Refused
 * connections are retried: json-server prints its address before it is listening.
 */
async function untilIdle(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      await response.arrayBuffer();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Serves the data folder with json-server and loads a page of 25 and a get-one. */
export async function measureJsonServer(dataDir: string, workDir: string, cinemaIds: string[], seconds: number): Promise<PeerFigures> {
  const dbFile = path.join(workDir, "json-server-db.json");
  const db = { showtimes: readRecords(path.join(dataDir, "showtimes")), cinemas: readRecords(path.join(dataDir, "cinemas")) };
  writeFileSync(dbFile, JSON.stringify(db));
  const port = await freePort();
  const server = await spawnUntil("node", ["node_modules/json-server/lib/cli/bin.js", "--port", String(port), "--host", "127.0.0.1", dbFile], /localhost|127\.0\.0\.1/);
  const url = `http://127.0.0.1:${port}`;
  try {
    const pages = Array.from({ length: 100 }, (_, i) => `/showtimes?_page=${i + 1}&_limit=25`);
    const getOnes = cinemaIds.slice(0, 200).map((id) => `/cinemas/${encodeURIComponent(id)}`);
    // Each run starts on an idle server: autocannon stops sending when its time is up, but
    // json-server still works through the requests queued on its 50 connections (pages take
    // ~100 ms each), and a run started then would time that backlog, not get-ones.
    await untilIdle(url + getOnes[0]);
    const getOne = await runLoad({ url, paths: getOnes, seconds });
    await untilIdle(url + getOnes[0]);
    const page = await runLoad({ url, paths: pages, seconds });
    return { page, getOne };
  } finally {
    await stop(server.child);
  }
}
