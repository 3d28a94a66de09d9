/**
 * The typed client's failures a new user meets first (decision: the typed client's failures): no
 * server at the address, a connection cut mid-body, a base URL ending in /v1, a missing or
 * malformed key. Each is an ApiError (kind, status, code, cause) or, for a setting, a TypeError
 * before any request; iterators retry what may pass and stop at once on what will not.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ApiError, createClient } from "../client/index.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, expectedList, generateDataset, type Dataset } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

let root: string;
let snapshotDir: string;
let accessFile: string;
let api: { server: Server; url: string };
let dataset: Dataset;

const listen = (options: { port: number }) =>
  startServer({ snapshotDir, accessFile, now: () => TEST_NOW, onError: () => {}, ...options });
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

beforeAll(async () => {
  root = makeTempDir("client-failures");
  dataset = generateDataset({ seed: 5, showtimes: 12, films: 5 });
  snapshotDir = path.join(root, "snapshot");
  await buildDataset(dataset, root, snapshotDir);
  accessFile = writeAccessFile(root);
  api = await listen({ port: 0 });
});
afterAll(async () => {
  await close(api.server);
  removeDir(root);
});

/** A port nothing listens on: taken from the system, then given back. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await close(probe);
  return port;
}

const ids = (records: { id: string }[]) => records.map((r) => r.id);
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe("no answer from the server", () => {
  test("a refused connection is an ApiError of kind network: status 0, the cause, the URL, never the key", async () => {
    const port = await freePort();
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEYS.bulk });
    const error = await client.listFilms({ limit: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const failure = error as ApiError;
    expect([failure.kind, failure.status, failure.code, failure.transient]).toEqual([
      "network",
      0,
      "network_error",
      true,
    ]);
    expect(failure.cause).toBeInstanceOf(TypeError);
    expect(failure.message).toBe(
      `GET http://127.0.0.1:${port}/v1/films: no answer (connect ECONNREFUSED 127.0.0.1:${port}); ` +
        "is the server running and baseUrl right?",
    );
    expect(failure.message).not.toContain(KEYS.bulk);
  });

  test("a body cut short is a network ApiError carrying the status that came", async () => {
    const cutting = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"data": [');
      setImmediate(() => res.destroy());
    });
    await new Promise<void>((resolve) => cutting.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = cutting.address() as AddressInfo;
      const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEYS.bulk });
      const error = (await client.listFilms().catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect([error.kind, error.status, error.code, error.transient]).toEqual(["network", 200, "network_error", true]);
    } finally {
      await close(cutting);
    }
  });

  test("an iterator waits out a server that is restarting (1 s, 2 s, …) and yields every record", async () => {
    const port = await freePort();
    const waits: number[] = [];
    let restarted: Server | undefined;
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEYS.bulk,
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length === 2) restarted = (await listen({ port })).server;
      },
    });
    try {
      const films = await collect(client.films({ limit: 2 }));
      expect(ids(films)).toEqual(ids(expectedList(dataset, "films")));
      expect(waits).toEqual([1000, 2000]);
    } finally {
      if (restarted) await close(restarted);
    }
  });

  test("after maxRetries the network ApiError carries the cursor of the page it could not fetch", async () => {
    const first = await createClient({ baseUrl: api.url, apiKey: KEYS.bulk }).listFilms({ limit: 2 });
    const gone = await freePort();
    const waits: number[] = [];
    const retrying = createClient({
      baseUrl: `http://127.0.0.1:${gone}`,
      apiKey: KEYS.bulk,
      maxRetries: 3,
      sleep: async (ms) => void waits.push(ms),
    });
    const error = (await collect(retrying.films({ limit: 2, cursor: first.pagination.nextCursor! })).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect([error.kind, error.cursor]).toEqual(["network", first.pagination.nextCursor]);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  const failingFetch = (cause?: Error) => async () => {
    throw new TypeError("fetch failed", cause ? { cause } : undefined);
  };
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  test.each([
    ["connection refused", withCode("connect ECONNREFUSED 10.0.0.1:443", "ECONNREFUSED"), true],
    ["connection reset", withCode("read ECONNRESET", "ECONNRESET"), true],
    ["a DNS hiccup", withCode("getaddrinfo EAI_AGAIN api.example.com", "EAI_AGAIN"), true],
    ["no such host", withCode("getaddrinfo ENOTFOUND api.example.con", "ENOTFOUND"), false],
    ["an expired certificate", withCode("certificate has expired", "CERT_HAS_EXPIRED"), false],
    ["a browser's bare failure (CORS, offline)", undefined, false],
  ])("%s: transient %s, and an iterator retries only what is", async (_what, cause, transient) => {
    const waits: number[] = [];
    const client = createClient({
      baseUrl: "https://api.example.com",
      apiKey: KEYS.bulk,
      fetch: failingFetch(cause),
      sleep: async (ms) => void waits.push(ms),
    });
    const error = (await collect(client.attributes()).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.kind, error.transient, error.cause instanceof TypeError]).toEqual(["network", transient, true]);
    expect(waits).toHaveLength(transient ? 5 : 0);
  });
});

describe("createClient's settings", () => {
  test.each(["", "/", "/v1", "/v1/"])("a base URL ending in %j reaches the API", async (suffix) => {
    const page = await createClient({ baseUrl: `${api.url}${suffix}`, apiKey: KEYS.bulk }).listFilms({ limit: 1 });
    expect(ids(page.data)).toEqual(ids(expectedList(dataset, "films").slice(0, 1)));
  });

  test("a base URL under a path prefix keeps it, /v1 or not", async () => {
    const seen: string[] = [];
    const recording = async (url: string | URL | Request) => {
      seen.push(String(url));
      return new Response('{"data": [], "pagination": {"nextCursor": null, "hasMore": false}, "freshness": {}}');
    };
    for (const baseUrl of ["https://example.com/api", "https://example.com/api/v1/"])
      await createClient({ baseUrl, apiKey: "k", fetch: recording as typeof fetch }).listFilms();
    expect(seen).toEqual(["https://example.com/api/v1/films", "https://example.com/api/v1/films"]);
  });

  const noRequest = async (): Promise<Response> => {
    throw new Error("no request may be sent");
  };
  const MUST = "an absolute http(s) URL such as https://listings.example.com";

  test.each([
    ["", `createClient: baseUrl must be ${MUST}, not ""`],
    ["localhost:3000", `createClient: baseUrl must be ${MUST}, not "localhost:3000"`],
    ["ftp://example.com", `createClient: baseUrl must be ${MUST}, not "ftp://example.com"`],
    ["https://user:pw@example.com", "createClient: baseUrl must not hold a user name or password"],
    ["https://example.com/?region=eu", "createClient: baseUrl must not hold a query (?…) or a fragment (#…)"],
  ])("baseUrl %j: a TypeError before any request", (baseUrl, message) => {
    expect(() => createClient({ baseUrl, apiKey: "k", fetch: noRequest })).toThrow(new TypeError(message));
  });

  const MISSING =
    "createClient: apiKey is missing: pass the key issued to your organization (e.g. apiKey: " +
    "process.env.API_KEY with API_KEY set)";
  const ODD =
    "createClient: apiKey holds spaces, line breaks or other characters no key has (a key read from a file " +
    "with its newline?)";

  test.each([
    ["undefined (an unset environment variable)", undefined, MISSING],
    ["empty", "", MISSING],
    ["with its file's newline", "cl_live_abc\n", ODD],
    ["with a space inside", "cl_live abc", ODD],
    ["non-ASCII", "cl_live_abç", ODD],
    ["with the scheme", "Bearer cl_live_abc", 'createClient: apiKey is the key alone, without "Bearer "'],
  ])("an apiKey %s: a TypeError before any request, never echoing the key", (_what, apiKey, message) => {
    expect(() => createClient({ baseUrl: "https://example.com", apiKey, fetch: noRequest })).toThrow(
      new TypeError(message),
    );
  });
});
