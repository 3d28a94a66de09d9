/**
 * The smoke run of the bench's chain (docs/performance.md, "Method"), through the real commands:
 * `npm run generate` writes a small synthetic dataset, `npm run build` compiles it, and the local
 * server answers from it. The bench runs the same chain at 20k–2M showtimes; this keeps the chain
 * itself from rotting, and its MCP scenarios honest: each tool call asks what its HTTP pair asks.
 */
import { readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { get } from "node:http";
import path from "node:path";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readManifest, Snapshot } from "../api/_core/format/read/snapshot.js";
import { feedInProcess, walkFeed } from "../scripts/bench/feed-walk.js";
import { showtimeListingOf } from "../api/_core/mcp/showtime-listing.js";
import { MCP_SCENARIOS, mcpScenarios } from "../scripts/bench/mcp-scenarios.js";
import { datesBetween } from "../scripts/bench/scenarios.js";
import { measureResponseSizes } from "../scripts/bench/response-size.js";
import { startServer } from "../scripts/server/local-server.js";
import {
  hashTree,
  listFiles,
  makeTempDir,
  readRecords,
  removeDir,
  runBuildCli,
  runScript,
  type CliResult,
} from "./helpers/build-helpers.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

const GENERATE = "scripts/generate.ts";
const SHOWTIMES = 3000;

let work: string;
let generated: CliResult;
let built: CliResult;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  work = makeTempDir("smoke");
  generated = await runScript(GENERATE, [
    "--out",
    path.join(work, "data"),
    "--showtimes",
    String(SHOWTIMES),
    "--seed",
    "7",
  ]);
  built = await runBuildCli(["--data", path.join(work, "data"), "--out", path.join(work, "snapshot")]);
  if (built.code !== 0) return;
  ({ server, url: baseUrl } = await startServer({
    snapshotDir: path.join(work, "snapshot"),
    accessFile: writeAccessFile(work),
    port: 0,
    now: () => TEST_NOW,
    onError: () => {},
  }));
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  removeDir(work);
});

function getJson(url: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { authorization: `Bearer ${KEYS.valid}` }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) }),
      );
    }).on("error", reject);
  });
}

function countShowtimes(dataDir: string): number {
  const dir = path.join(dataDir, "showtimes");
  return listFiles(dir).reduce((sum, file) => sum + readRecords(path.join(dir, file)).length, 0);
}

describe("generate → build → serve", () => {
  test("generate writes exactly the requested number of showtimes in the data/ layout", () => {
    expect(generated.code).toBe(0);
    expect(readdirSync(path.join(work, "data")).sort()).toEqual(["attributes", "cinemas", "films", "showtimes"]);
    expect(countShowtimes(path.join(work, "data"))).toBe(SHOWTIMES);
  });

  test("the same size and seed give byte-identical files; another seed does not", async () => {
    const again = path.join(work, "again");
    const other = path.join(work, "other");
    await runScript(GENERATE, ["--out", again, "--showtimes", String(SHOWTIMES), "--seed", "7"]);
    await runScript(GENERATE, ["--out", other, "--showtimes", String(SHOWTIMES), "--seed", "8"]);
    expect(hashTree(again)).toEqual(hashTree(path.join(work, "data")));
    expect(hashTree(other)).not.toEqual(hashTree(path.join(work, "data")));
  });

  test("the generated data passes every validation rule of the build", () => {
    expect(built.code).toBe(0);
  });

  test("the server answers a page of showtimes from the generated snapshot", async () => {
    const page = await getJson(`${baseUrl}/v1/showtimes?limit=5`);
    expect(page.status).toBe(200);
    expect(page.json.data).toHaveLength(5);
    expect(page.json.pagination.hasMore).toBe(true);
    const cinema = await getJson(`${baseUrl}/v1/cinemas/${encodeURIComponent(page.json.data[0].cinemaId)}`);
    expect(cinema.status).toBe(200);
    expect(cinema.json.data.id).toBe(page.json.data[0].cinemaId);
  });

  test("the bench's largest precomputed response is the largest body decompressed, read from gzip trailers", () => {
    const snapshotDir = path.join(work, "snapshot");
    const snapshot = new Snapshot(readManifest(snapshotDir), snapshotDir, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
    let identity = 0;
    let gzip = 0;
    for (const address of snapshot.bodies.entries()) {
      const body = snapshot.bodies.read(address);
      identity = Math.max(identity, gunzipSync(body.gzip).length);
      gzip = Math.max(gzip, body.gzip.length);
    }
    snapshot.close();
    const sizes = measureResponseSizes(snapshotDir);
    expect(sizes.precomputedIdentityMb * 2 ** 20).toBe(identity);
    expect(sizes.precomputedGzipMb * 2 ** 20).toBe(gzip);
    // A composed page of 100 records is larger than any precomputed page of 25.
    expect(sizes.composedBoundMb).toBeGreaterThan(sizes.precomputedIdentityMb);
  });

  test(
    "the bench's walk of the changes feed, through the request core, copies every record in ⌈records ÷ " +
      "limit⌉ pages",
    async () => {
      const snapshotDir = path.join(work, "snapshot");
      const { counts } = readManifest(snapshotDir);
      const records = counts.showtimes + counts.cinemas + counts.films + counts.attributes;
      const walk = await walkFeed(feedInProcess(snapshotDir), "/v1/changes?limit=1000");
      expect(walk.changes).toBe(records);
      expect(walk.pageUrls).toHaveLength(Math.ceil(records / 1000));
      expect(walk.pageUrls[1]).toMatch(/^\/v1\/changes\?limit=1000&cursor=[^&]+$/);
      // A catch-up from the token it ended with has nothing to send: one page, no changes.
      const again = await walkFeed(feedInProcess(snapshotDir), `/v1/changes?since=${walk.token}&limit=1000`);
      expect([again.changes, again.pageUrls.length, again.token]).toEqual([0, 1, walk.token]);
    },
  );
});

describe("the bench's MCP scenarios (decision: MCP)", () => {
  test("each tool call answers what the HTTP request paired with it answers, for both tools", async () => {
    const dir = path.join(work, "snapshot");
    const snapshot = new Snapshot(readManifest(dir), dir, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
    let scenarios: ReturnType<typeof mcpScenarios>;
    try {
      const days = datesBetween(Date.UTC(2026, 11, 1) / 60_000, Date.UTC(2026, 11, 14) / 60_000);
      let n = 0;
      scenarios = mcpScenarios(snapshot.lists, days, (k) => n++ % k);
    } finally {
      snapshot.close();
    }
    const names = Object.values(MCP_SCENARIOS).flatMap(({ http, mcp }) => [http, mcp]);
    expect(scenarios.map((s) => s.name)).toEqual(names);
    for (let i = 0; i < scenarios.length; i += 2) {
      const [http, mcp] = [scenarios[i]!, scenarios[i + 1]!];
      for (let q = 0; q < 20; q++) {
        const response = await fetch(`${baseUrl}/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${KEYS.bulk}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: mcp.bodies![q],
        });
        const { result } = (await response.json()) as { result: any };
        expect(result.isError, result.content[0].text).toBeFalsy();
        const page = (await getJson(`${baseUrl}${http.paths[q]}`)).json;
        // find_showtimes lists the page's films and cinemas once (decision: MCP, a page of showtimes).
        const expected = mcp.name === MCP_SCENARIOS.showtimes.mcp ? showtimeListingOf(page) : page;
        expect(result.structuredContent).toEqual(expected);
      }
    }
  });
});

describe("small datasets", () => {
  // With few cinemas, a cinema of a few screens of long films cannot hold its share in the usual
  // days; the rest plays on the last day and after, never at a day without a date.
  test.each([
    [2000, 7],
    [2000, 21],
  ])("%i showtimes, seed %i: exactly that many, and every one passes the build", async (showtimes, seed) => {
    const dir = makeTempDir("small");
    try {
      const data = path.join(dir, "data");
      const made = await runScript(GENERATE, ["--out", data, "--showtimes", String(showtimes), "--seed", String(seed)]);
      expect(made.code, made.stderr).toBe(0);
      expect(countShowtimes(data)).toBe(showtimes);
      const build = await runBuildCli(["--data", data, "--out", path.join(dir, "snapshot")]);
      expect(build.code, build.stderr).toBe(0);
    } finally {
      removeDir(dir);
    }
  });
});
