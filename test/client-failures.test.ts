/**
 * The typed client's failures a new user meets first (decision: the typed client's failures): no
 * server at the address, a connection cut mid-body, a base URL ending in /v1, a missing or
 * malformed key. Each is an ApiError (kind, status, code, cause) or, for a setting, a TypeError
 * before any request; iterators retry what may pass and stop at once on what will not.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from "node:http";
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

/** A server of our own on an ephemeral port, answering as `handle` says. */
async function listenWith(handle: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** In front of the API: the first request for each URL loses its connection (`drop`), the next is answered. */
function dropFirstRequestOfEachPage(drop: (req: IncomingMessage) => void) {
  const seen = new Set<string>();
  return listenWith(async (req, res) => {
    if (!seen.has(req.url!)) {
      seen.add(req.url!);
      return drop(req);
    }
    const answer = await fetch(`${api.url}${req.url}`, { headers: { authorization: req.headers.authorization! } });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  });
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
      false,
    ]);
    expect(failure.cause).toBeInstanceOf(TypeError);
    expect(failure.message).toBe(
      `GET http://127.0.0.1:${port}/v1/films: no answer (connect ECONNREFUSED 127.0.0.1:${port}); ` +
        "is the server running and baseUrl right?",
    );
    expect(failure.message).not.toContain(KEYS.bulk);
  });

  test("a body cut short is a network ApiError carrying the status that came", async () => {
    const cutting = await listenWith((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"data": [');
      setImmediate(() => res.destroy());
    });
    try {
      const client = createClient({ baseUrl: cutting.url, apiKey: KEYS.bulk });
      const error = (await client.listFilms().catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect([error.kind, error.status, error.code, error.transient]).toEqual(["network", 200, "network_error", true]);
    } finally {
      await close(cutting.server);
    }
  });

  test("an iterator on a closed port fails after 0 retries, with the message and its cursor", async () => {
    const first = await createClient({ baseUrl: api.url, apiKey: KEYS.bulk }).listFilms({ limit: 2 });
    const port = await freePort();
    const waits: number[] = [];
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEYS.bulk,
      sleep: async (ms) => void waits.push(ms),
    });
    const error = (await collect(client.films({ limit: 2, cursor: first.pagination.nextCursor! })).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect([error.kind, error.transient, error.cursor]).toEqual(["network", false, first.pagination.nextCursor]);
    expect(error.message).toContain(`connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(waits).toEqual([]);
  });

  test.each([
    ["closed with no answer (fetch: other side closed)", (req: IncomingMessage) => req.socket.destroy()],
    ["reset (read ECONNRESET)", (req: IncomingMessage) => req.socket.resetAndDestroy()],
  ])("a connection %s after the request was sent is retried: every record, in order", async (_what, drop) => {
    const flaky = await dropFirstRequestOfEachPage(drop);
    const waits: number[] = [];
    const client = createClient({ baseUrl: flaky.url, apiKey: KEYS.bulk, sleep: async (ms) => void waits.push(ms) });
    try {
      const films = await collect(client.films({ limit: 2 }));
      expect(ids(films)).toEqual(ids(expectedList(dataset, "films")));
      const pages = Math.ceil(films.length / 2);
      expect(waits, "one wait of 1 s before each page's second request").toEqual(Array(pages).fill(1000));
    } finally {
      await close(flaky.server);
    }
  });

  test("after maxRetries a connection lost every time gives the network ApiError with the page's cursor", async () => {
    const first = await createClient({ baseUrl: api.url, apiKey: KEYS.bulk }).listFilms({ limit: 2 });
    const dropping = await listenWith((req) => req.socket.destroy());
    const waits: number[] = [];
    const retrying = createClient({
      baseUrl: dropping.url,
      apiKey: KEYS.bulk,
      maxRetries: 3,
      sleep: async (ms) => void waits.push(ms),
    });
    try {
      const error = (await collect(retrying.films({ limit: 2, cursor: first.pagination.nextCursor! })).catch(
        (e: unknown) => e,
      )) as ApiError;
      expect([error.kind, error.transient, error.cursor]).toEqual(["network", true, first.pagination.nextCursor]);
      expect(waits).toEqual([1000, 2000, 4000]);
    } finally {
      await close(dropping.server);
    }
  });

  const failingFetch = (cause?: Error) => async () => {
    throw new TypeError("fetch failed", cause ? { cause } : undefined);
  };
  /** A socket's error as Node gives it: a code, and the system call that failed (connect, read, write). */
  const systemError = (message: string, code: string, syscall?: string) =>
    Object.assign(new Error(message), { code, syscall });
  /** Node 22's refusal when a name resolves to several addresses and each refuses: no message of its own. */
  const refusedEverywhere = Object.assign(
    new AggregateError([
      systemError("connect ECONNREFUSED ::1:3000", "ECONNREFUSED", "connect"),
      systemError("connect ECONNREFUSED 127.0.0.1:3000", "ECONNREFUSED", "connect"),
    ]),
    { code: "ECONNREFUSED" },
  );

  // Before the request left (connect, DNS, TLS) waiting fixes nothing a caller should wait for; a
  // connection lost after it was sent is what a restart or an idle connection closed under it looks like.
  test.each([
    ["connection refused", false, systemError("connect ECONNREFUSED 10.0.0.1:443", "ECONNREFUSED", "connect")],
    ["refused at every address (Node 22+)", false, refusedEverywhere],
    ["connect timed out", false, systemError("connect ETIMEDOUT 10.0.0.1:443", "ETIMEDOUT", "connect")],
    ["fetch's connect timeout", false, systemError("Connect Timeout Error", "UND_ERR_CONNECT_TIMEOUT")],
    ["no route to host", false, systemError("connect EHOSTUNREACH 10.0.0.1:443", "EHOSTUNREACH", "connect")],
    ["network unreachable", false, systemError("connect ENETUNREACH 10.0.0.1:443", "ENETUNREACH", "connect")],
    ["no such host", false, systemError("getaddrinfo ENOTFOUND api.example.con", "ENOTFOUND", "getaddrinfo")],
    ["a DNS failure", false, systemError("getaddrinfo EAI_AGAIN api.example.com", "EAI_AGAIN", "getaddrinfo")],
    ["reset while connecting", false, systemError("connect ECONNRESET 10.0.0.1:443", "ECONNRESET", "connect")],
    ["an expired certificate", false, systemError("certificate has expired", "CERT_HAS_EXPIRED")],
    ["a browser's bare failure (CORS, offline)", false, undefined],
    ["reset after sending", true, systemError("read ECONNRESET", "ECONNRESET", "read")],
    ["closed after sending", true, systemError("other side closed", "UND_ERR_SOCKET")],
    ["a broken pipe while sending", true, systemError("write EPIPE", "EPIPE", "write")],
    ["timed out waiting for the answer", true, systemError("read ETIMEDOUT", "ETIMEDOUT", "read")],
    ["fetch's headers timeout", true, systemError("Headers Timeout Error", "UND_ERR_HEADERS_TIMEOUT")],
  ])("%s: transient %s, and an iterator retries only what is", async (_what, transient, cause) => {
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

  test("a refusal at every address names them (Node 22's error has no message of its own)", async () => {
    const client = createClient({
      baseUrl: "http://localhost:3000",
      apiKey: "k",
      fetch: failingFetch(refusedEverywhere),
    });
    const error = (await client.listFilms().catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe(
      "GET http://localhost:3000/v1/films: no answer (connect ECONNREFUSED ::1:3000; connect ECONNREFUSED " +
        "127.0.0.1:3000); is the server running and baseUrl right?",
    );
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
