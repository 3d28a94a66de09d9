/**
 * Hostile input over a real socket (decisions: requests the parser refuses, echoed values,
 * absolute-form targets, one Authorization header, headers of the public files): every answer is
 * the spec's error envelope (spec §7) or a 200, with X-Request-Id and nosniff, and never a bare status.
 */
import { cpSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ERROR_CODES } from "../api/_core/respond/errors.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { codePointLength } from "../api/_core/respond/text.js";
import { startServer } from "../scripts/server/local-server.js";
import { auth, describeMatrix, KEYS, TEST_NOW, useClient, useHttpFixture } from "./helpers/http-setup.js";
import { parseRawResponse, rawExchange, type RawResponse } from "./helpers/raw-http.js";
import { scaled } from "./helpers/deadlines.js";

const fixture = useHttpFixture();
const REQUEST_TIMEOUT_MS = 1000;
/** Every response's X-Request-Id: a random (version 4) UUID. */
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: Server;
let base: string;
beforeAll(async () => {
  ({ server, url: base } = await startServer({
    snapshotDir: fixture.snapshotDir,
    accessFile: fixture.accessFile,
    port: 0,
    now: () => TEST_NOW,
    onError: () => {},
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  }));
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

/** The first response to raw request bytes. */
async function raw(request: Buffer | string): Promise<RawResponse> {
  const response = parseRawResponse(await rawExchange(base, request));
  expect(response, `no response to ${JSON.stringify(request.toString("latin1").slice(0, 80))}`).toBeDefined();
  return response!;
}

/**
 * Spec §7's envelope, well-formed to a strict decoder: a known code, a message of 1..300 code points, no lone
 * surrogate.
 */
function expectEnvelope(body: Buffer): {
  code: string;
  message: string;
  requestId: string;
  details?: Record<string, unknown>;
} {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  const { error } = JSON.parse(text);
  expect(ERROR_CODES).toContain(error.code);
  expect(error.message.isWellFormed()).toBe(true);
  expect(codePointLength(error.message)).toBeGreaterThanOrEqual(1);
  expect(codePointLength(error.message)).toBeLessThanOrEqual(300);
  return error;
}

/** What every refusal outside the core carries. */
function expectRefusal(response: RawResponse, status: number): void {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(response.headers["x-content-type-options"]).toBe("nosniff");
  expect(response.headers.connection).toBe("close");
  const error = expectEnvelope(response.body);
  expect(error.code).toBe("bad_request");
  expect(error.requestId).toBe(response.headers["x-request-id"]);
}

const KEY_LINE = `Authorization: Bearer ${KEYS.valid}\r\n`;

describe("requests the parser refuses get the error envelope", () => {
  const cases: Array<[string, number, string | Buffer]> = [
    ["a NUL in the request line", 400, "GET /v1/fi\0lms HTTP/1.1\r\nHost: x\r\n\r\n"],
    [
      "a raw non-ASCII byte in the request line",
      400,
      Buffer.concat([Buffer.from("GET /v1/films/"), Buffer.from([0xff]), Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n")]),
    ],
    ["a 64 KB URL", 431, `GET /v1/films?${"a".repeat(64 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    [
      "100 KB of headers",
      431,
      `GET /v1/films HTTP/1.1\r\nHost: x\r\n${"X-Pad: ".concat("p".repeat(1000), "\r\n").repeat(100)}\r\n`,
    ],
    [
      "Content-Length beside Transfer-Encoding",
      400,
      "GET /v1/films HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ],
    ["a header line without a colon", 400, "GET /v1/films HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n"],
    ["not HTTP at all", 400, "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"],
  ];
  test.each(cases)("%s: %i", async (_, status, request) => {
    expectRefusal(await raw(request), status);
  });

  test("HTTP/1.1 without Host (RFC 9112 §3.2): 400", async () => {
    const response = await raw(`GET /v1/films HTTP/1.1\r\n${KEY_LINE}\r\n`);
    expectRefusal(response, 400);
    expect(expectEnvelope(response.body).message).toBe("An HTTP/1.1 request must carry a Host header.");
  });

  test("HEAD without Host: the same 400, no body", async () => {
    const response = await raw(`HEAD /v1/films HTTP/1.1\r\n${KEY_LINE}\r\n`);
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(response.headers["content-length"])).toBeGreaterThan(0);
    expect(response.headers["x-request-id"]).toMatch(REQUEST_ID);
    expect(response.body.length).toBe(0);
  });

  test("HTTP/1.0 needs no Host: answered as usual", async () => {
    const response = await raw(`GET /v1/films HTTP/1.0\r\n${KEY_LINE}\r\n`);
    expect(response.status).toBe(200);
  });

  test("Expect other than 100-continue: 417", async () => {
    expectRefusal(await raw(`GET /v1/films HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n${KEY_LINE}\r\n`), 417);
  });

  test("a request that stops arriving: 408 once the request timeout passes", async () => {
    expectRefusal(await raw(`GET /v1/films HTTP/1.1\r\nHost: x\r\nX-Half: `), 408);
  });

  test("CONNECT: 405 with Allow, never a dropped socket", async () => {
    const response = await raw(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n${KEY_LINE}\r\n`);
    expectRefusal(response, 405);
    expect(response.headers.allow).toBe("GET, HEAD");
  });
});

describe("absolute-form targets route by their path (RFC 9112 §3.2.2)", () => {
  const cases: Array<[string, number]> = [
    ["http://listings.example/v1/films?limit=1", 200],
    ["HTTPS://listings.example:8443/v1/films", 200],
    ["http://listings.example", 404],
    ["http://listings.example?limit=1", 404],
    ["http://listings.example/v1/nope", 404],
    ["ftp://listings.example/v1/films", 404],
  ];
  test.each(cases)("GET %s: %d", async (target, status) => {
    const response = await raw(`GET ${target} HTTP/1.1\r\nHost: other.example\r\n${KEY_LINE}Connection: close\r\n\r\n`);
    expect(response.status).toBe(status);
    const originQuery = target.includes("limit=1") && target.includes("/v1/films") ? "?limit=1" : "";
    const origin = await raw(`GET /v1/films${originQuery} HTTP/1.1\r\nHost: x\r\n${KEY_LINE}Connection: close\r\n\r\n`);
    if (status === 200) expect(response.body).toEqual(origin.body);
    else expectEnvelope(response.body);
  });
});

describe("a fragment in the target is dropped, as a URL parser drops it on Vercel (decision: fragments)", () => {
  const ask = (target: string) => raw(`GET ${target} HTTP/1.1\r\nHost: x\r\n${KEY_LINE}Connection: close\r\n\r\n`);
  const cases: Array<[string, string, number]> = [
    ["/v1/films?limit=2#x", "/v1/films?limit=2", 200],
    ["/v1/films?limit=2#", "/v1/films?limit=2", 200],
    ["/v1/films#?limit=101", "/v1/films", 200],
    ["/v1/films/film#", "/v1/films/film", 200],
    ["/v1/films/film#x", "/v1/films/film", 200],
    ["/v1/films/film%23x#x", "/v1/films/film%23x", 404],
    ["/healthz#x", "/healthz", 200],
    ["/openapi.json#x", "/openapi.json", 200],
    ["http://listings.example/v1/films?limit=1#x", "/v1/films?limit=1", 200],
  ];
  test.each(cases)("GET %s answers as GET %s: %d", async (target, without, status) => {
    const [response, expected] = [await ask(target), await ask(without)];
    expect(response.status).toBe(status);
    expect(response.body.toString().replaceAll(response.headers["x-request-id"]!, "<id>")).toBe(
      expected.body.toString().replaceAll(expected.headers["x-request-id"]!, "<id>"),
    );
  });

  test("an encoded # is part of an id: the 404 names it whole", async () => {
    const error = expectEnvelope((await ask("/v1/films/film%23x")).body);
    expect(error.message).toContain('"film#x"');
  });
});

describe("two Authorization headers are a 401, whatever the first one holds", () => {
  const cases: Array<[string, string[]]> = [
    ["a valid key twice", [KEYS.valid, KEYS.valid]],
    ["a valid key, then a revoked one", [KEYS.valid, KEYS.revoked]],
    ["a revoked key, then a valid one", [KEYS.revoked, KEYS.valid]],
  ];
  test.each(cases)("%s", async (_, keys) => {
    const lines = keys.map((key) => `Authorization: Bearer ${key}\r\n`).join("");
    const response = await raw(`GET /v1/films HTTP/1.1\r\nHost: x\r\n${lines}Connection: close\r\n\r\n`);
    expect(response.status).toBe(401);
    expect(expectEnvelope(response.body).message).toMatch(/one Authorization header/);
  });

  test("one header still admits", async () => {
    expect((await raw(`GET /v1/films HTTP/1.1\r\nHost: x\r\n${KEY_LINE}Connection: close\r\n\r\n`)).status).toBe(200);
  });
});

describe("the public documentation carries X-Request-Id and nosniff", () => {
  test.each(["/", "/openapi.json"])("%s", async (path) => {
    const response = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(response.status).toBe(200);
    expect(response.headers["x-request-id"]).toMatch(REQUEST_ID);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describeMatrix("echoed values are cut by code point", (runtime) => {
  const api = useClient(runtime, () => ({ snapshotDir: fixture.snapshotDir, accessFile: fixture.accessFile }));
  const get = (path: string) => api.request(path, { headers: auth(KEYS.valid) });
  const emoji = (n: number) => encodeURIComponent("😀".repeat(n));

  test.each([
    ["an id of 160 emoji (the bound)", 404, `/v1/films/${emoji(160)}`],
    ["an id of 161 emoji (past it)", 400, `/v1/films/${emoji(161)}`],
    ["a cinemaId of 161 emoji", 400, `/v1/showtimes?cinemaId=${emoji(161)}`],
    ["a parameter named a + 200 emoji", 400, `/v1/films?a${emoji(200)}=1`],
    ["an id of 160 control characters (escaped six-fold in JSON)", 404, `/v1/films/${"%01".repeat(160)}`],
  ])("%s: %i, well-formed", async (_, status, path) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expectEnvelope(response.body);
  });

  test("a 404 echoes an id of 160 code points whole", async () => {
    const id = "é".repeat(80) + "😀".repeat(80);
    const error = expectEnvelope((await get(`/v1/films/${encodeURIComponent(id)}`)).body);
    expect(error.message).toContain(JSON.stringify(id));
  });

  test.each([
    [64, "x".repeat(64)],
    [65, `${"x".repeat(63)}…`],
    [8000, `${"x".repeat(63)}…`],
    [65, `${"😀".repeat(63)}…`, "😀"],
  ])("an unknown parameter name of %i code points is echoed cut to 64", async (length, echoed, unit = "x") => {
    const error = expectEnvelope((await get(`/v1/films?${encodeURIComponent(unit.repeat(length))}=1`)).body);
    expect(error.details).toEqual({ parameter: echoed });
    expect(error.message.startsWith(`${echoed}: `)).toBe(true);
  });
});

describe("a manifest of the wrong shape: a 503 where no snapshot is in service, never a 500", () => {
  const shapes: Array<[string, string]> = [
    ['{"format": 2}', '{"format": 2}'],
    ['{"format": 3}', '{"format": 3}'],
    ["null", "null"],
    ["an empty file", ""],
    ["a JSON string", '"snapshot"'],
    ["[]", "[]"],
  ];
  /** A server on `dir`, looking at its manifest on every request. */
  const serve = (dir: string, errors: unknown[]) =>
    startServer({
      snapshotDir: dir,
      accessFile: fixture.accessFile,
      port: 0,
      now: () => TEST_NOW,
      snapshots: new SnapshotSource(dir, { recheckMs: 0 }),
      onError: (_id, error) => errors.push(error),
    });
  const close = (server: Server) => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  const ask = async (url: string, target: string) =>
    parseRawResponse(
      await rawExchange(url, `GET ${target} HTTP/1.1\r\nHost: x\r\n${KEY_LINE}Connection: close\r\n\r\n`),
    )!;
  const TARGETS = ["/v1/showtimes", "/v1/showtimes?limit=3", "/v1/cinemas", "/v1/films/film-x"];

  test.each(shapes)("%s", async (_, text) => {
    const dir = path.join(fixture.root, `manifest-${shapes.findIndex(([, t]) => t === text)}`);
    cpSync(fixture.snapshotDir, dir, { recursive: true });
    const errors: unknown[] = [];
    const running = await serve(dir, errors);
    try {
      const statuses = async () => Promise.all(TARGETS.map(async (target) => (await ask(running.url, target)).status));
      const before = await statuses();
      expect(before).toEqual([200, 200, 200, 404]);
      writeFileSync(path.join(dir, "manifest.json"), text);
      // Replaced under a running server: the snapshot in service stays (its files are open).
      expect(await statuses()).toEqual(before);
    } finally {
      await close(running.server);
    }
    const started = await serve(dir, errors);
    try {
      for (const target of TARGETS) {
        const response = await ask(started.url, target);
        expect(response.status, target).toBe(503);
        expect(expectEnvelope(response.body).code).toBe("database_unavailable");
        expect(response.headers["retry-after"]).toBe("5");
      }
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) expect(String(error)).toMatch(/manifest\.json/);
    } finally {
      await close(started.server);
    }
  });
});

describe("fuzz: random bytes as request line and headers", () => {
  const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/);
  const bytes = fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString("latin1"));
  const piece = fc.oneof(
    bytes,
    token,
    fc.constantFrom(
      "/v1/films",
      "/v1/showtimes?limit=",
      "%",
      "%zz",
      "?",
      "&",
      " ",
      "\r\n",
      ":",
      "\0",
      "😀",
      "HTTP/1.1",
    ),
  );
  const text = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(""));
  const request = fc.record({
    method: fc.oneof(fc.constantFrom("GET", "HEAD", "POST", "OPTIONS", "CONNECT", "get"), text),
    target: fc.oneof(
      fc.constant("/v1/films"),
      text.map((t) => `/v1/${t}`),
      text,
    ),
    headers: fc.array(fc.tuple(fc.oneof(token, text), text), { maxLength: 4 }),
    key: fc.boolean(),
    host: fc.boolean(),
  });

  test("every response is a 200 or a well-formed error envelope with X-Request-Id", {
    timeout: scaled(120_000),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ method, target, headers, key, host }) => {
        const lines = headers.map(([name, value]) => `${name}: ${value}\r\n`).join("");
        const bytes = Buffer.from(
          `${method} ${target} HTTP/1.1\r\n${host ? "Host: x\r\n" : ""}${key ? KEY_LINE : ""}` +
            `${lines}Connection: close\r\n\r\n`,
          "latin1",
        );
        const response = parseRawResponse(await rawExchange(base, bytes));
        expect(response, JSON.stringify(bytes.toString("latin1"))).toBeDefined();
        expect(response!.headers["x-request-id"]).toMatch(REQUEST_ID);
        expect(response!.headers["x-content-type-options"]).toBe("nosniff");
        if (response!.status !== 200 && !(method === "HEAD" && response!.body.length === 0)) {
          expect(expectEnvelope(response!.body).requestId).toBe(response!.headers["x-request-id"]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
