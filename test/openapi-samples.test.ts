/**
 * The request samples of the reference (each operation's x-codeSamples in public/openapi.json) do
 * what they show: with KEY the demo key and API the local server's /v1, each curl command's request
 * answers 200 with data from the demo data in data/.
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { OPERATIONS } from "../build/openapi/operations.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT, runBuildCli } from "./helpers/build-helpers.js";

const DEMO_KEY = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";
const CURL = /^curl -s -H "Authorization: Bearer \$KEY" "\$API(\/[^"\s$`\\]+)"$/;

interface Sample {
  lang: string;
  label: string;
  source: string;
}
const document = JSON.parse(readFileSync(path.join(ROOT, "public/openapi.json"), "utf8")) as {
  paths: Record<string, { get: { operationId: string; "x-codeSamples"?: Sample[] } }>;
};

let root: string;
let server: Server;
let api: string;

beforeAll(async () => {
  root = makeTempDir("samples");
  const built = await runBuildCli(["--data", "data", "--out", path.join(root, "snapshot")]);
  expect(built.code, built.stderr).toBe(0);
  let url: string;
  ({ server, url } = await startServer({
    snapshotDir: path.join(root, "snapshot"),
    accessFile: path.join(ROOT, "data/demo-access.json"),
    port: 0,
    // The week the demo data covers: the demo key's entitlement is judged at a fixed time, never today.
    now: () => new Date("2026-11-24T12:00:00Z"),
  }));
  api = `${url}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  removeDir(root);
});

test.each(OPERATIONS.map((op) => [op.operationId, op.path]))(
  "%s (%s) has one curl sample, and it answers 200 with data",
  async (operationId, opPath) => {
    const samples = document.paths[opPath]!.get["x-codeSamples"];
    expect(samples?.map((s) => [s.lang, s.label])).toEqual([["Shell", "curl"]]);
    const request = CURL.exec(samples![0]!.source)?.[1];
    expect(request, samples![0]!.source).toBeDefined();
    const response = await fetch(`${api}${request}`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
    const body = (await response.json()) as { data: unknown };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(Array.isArray(body.data) ? body.data.length : 1).toBeGreaterThan(0);
    expect(operationId).toBe(document.paths[opPath]!.get.operationId);
  },
);
