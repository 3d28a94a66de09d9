/**
 * The request samples of the reference (each operation's x-codeSamples in public/openapi.json) do
 * what they show: with KEY the demo key and API the local server's /v1, each curl command's request
 * answers 200 with data from the demo data in data/. So do the path parameters' examples and the
 * operations' links, which lead a client or a fuzzer to records rather than 404s; and a 400 the
 * server's HTTP parser gives, before any key is read, is one the document describes (decision: the
 * OpenAPI document).
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OPERATIONS } from "../build/openapi/operations.js";
import { samplePath } from "../build/openapi/samples.js";
import { createResponseValidator } from "../build/openapi/validate.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT, runBuildCli } from "./helpers/build-helpers.js";
import { parseRawResponse, rawExchange } from "./helpers/raw-http.js";

const DEMO_KEY = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";
/** $API, or ${API%/v1} (the origin, for /markets: decision: markets), then the request's path. */
const CURL = /^curl -s -H "Authorization: Bearer \$KEY" "(\$API|\$\{API%\/v1\})(\/[^"\s$`\\]+)"$/;

interface Sample {
  lang: string;
  label: string;
  source: string;
}
interface Link {
  operationId: string;
  parameters: Record<string, string>;
}
const document = JSON.parse(readFileSync(path.join(ROOT, "public/openapi.json"), "utf8")) as {
  paths: Record<
    string,
    { get: { operationId: string; "x-codeSamples"?: Sample[]; responses: { 200: { links?: Record<string, Link> } } } }
  >;
  components: { parameters: Record<string, { in: string; example?: string }> };
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
    const [, base, request] = CURL.exec(samples![0]!.source) ?? [];
    expect(request, samples![0]!.source).toBeDefined();
    const root = base === "$API" ? api : api.replace(/\/v1$/, "");
    const response = await fetch(`${root}${request}`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
    const body = (await response.json()) as { data: unknown };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(Array.isArray(body.data) ? body.data.length : 1).toBeGreaterThan(0);
    expect(operationId).toBe(document.paths[opPath]!.get.operationId);
  },
);

/** The demo's answer to a GET below /v1, as JSON. */
async function get(target: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${api}${target}`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
  return { status: response.status, body: await response.json() };
}

/** An operation's path with its parameters filled in, percent-encoded. */
function filled(opPath: string, values: Record<string, string>): string {
  return opPath.replace(/^\/v1/, "").replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
}

const pathParameters = Object.entries(document.components.parameters).filter(([, p]) => p.in === "path");

test.each(OPERATIONS.filter((op) => op.getOne).map((op) => [op.operationId, op.path]))(
  "%s: its path parameter's example names a record of the demo data",
  async (_operationId, opPath) => {
    const examples = Object.fromEntries(pathParameters.map(([name, p]) => [name, p.example!]));
    const { status, body } = await get(filled(opPath, examples));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(Object.values(examples)).toContain(body.data.id);
  },
);

const LINKS = OPERATIONS.flatMap((op) =>
  Object.entries(document.paths[op.path]!.get.responses[200].links ?? {}).map(([name, link]) => ({ op, name, link })),
);

test("the operations that list or embed ids link to the get-ones of those ids", () => {
  expect(LINKS.map(({ op, name }) => `${op.operationId} → ${name}`)).toEqual([
    "listShowtimes → getShowtime",
    "listShowtimes → getFilm",
    "listShowtimes → getCinema",
    "getShowtime → getFilm",
    "getShowtime → getCinema",
    "listCinemas → getCinema",
    "listFilms → getFilm",
  ]);
});

test.each(LINKS.map(({ op, name, link }) => [op.operationId, name, op, link] as const))(
  "%s's 200 links to %s, and following it on the demo data answers 200 with that record",
  async (_from, _to, op, link) => {
    const source = await get(samplePath(op));
    expect(source.status).toBe(200);
    const target = OPERATIONS.find((o) => o.operationId === link.operationId)!;
    const values: Record<string, string> = {};
    for (const [name, expression] of Object.entries(link.parameters)) {
      const pointer = /^\$response\.body#(\/.*)$/.exec(expression)![1]!;
      values[name] = pointer
        .split("/")
        .slice(1)
        .reduce((value, token) => value?.[token], source.body);
      expect(typeof values[name], expression).toBe("string");
    }
    const answer = await get(filled(target.path, values));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Object.values(values)).toContain(answer.body.data.id);
  },
);

describe("a 400 and its RateLimit headers, as the document says", () => {
  const validator = createResponseValidator(document);

  test("the document marks RateLimit optional on a 400: sent once the key checks passed", () => {
    const { headers } = validator.response("listFilms", 400)!;
    expect(headers["RateLimit-Policy"]).toEqual({ required: false });
    expect(headers.RateLimit).toEqual({ required: false });
  });

  test("a parameter the API refuses: a 400 after the key checks, with the organization's RateLimit", async () => {
    const response = await fetch(`${api}/films?limit=0`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
    const headers = Object.fromEntries(response.headers);
    expect(response.status).toBe(400);
    expect(validator.checkHeaders("listFilms", 400, headers)).toEqual([]);
    expect(validator.checkBody("listFilms", 400, await response.json())).toEqual([]);
    expect(headers.ratelimit).toMatch(/^"org";r=[0-9]+;t=[0-9]+$/);
  });

  test.each([
    ["a NUL in the request line", `GET /v1/fi\0lms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEMO_KEY}\r\n\r\n`],
    ["an HTTP/1.1 request without Host", `GET /v1/films HTTP/1.1\r\nAuthorization: Bearer ${DEMO_KEY}\r\n\r\n`],
  ])("%s: the parser's 400 is as documented, without RateLimit (no key was read)", async (_what, request) => {
    const response = parseRawResponse(await rawExchange(api, request))!;
    expect(response.status).toBe(400);
    expect(validator.checkHeaders("listFilms", 400, response.headers)).toEqual([]);
    expect(validator.checkBody("listFilms", 400, JSON.parse(response.body.toString()))).toEqual([]);
    expect(Object.keys(response.headers).filter((name) => name.startsWith("ratelimit"))).toEqual([]);
  });
});
