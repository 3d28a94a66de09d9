/**
 * Slow requests on the local server, over a real socket (decision: slow requests): an answer sent
 * before the request's body was read (a refusal) says `Connection: close` and the server closes
 * the socket, so a client trickling a body it has no key for holds no connection; a 401 closes it
 * always. Headers that never end, and a body that never ends, meet a deadline (injected small here).
 * A key holder's ordinary requests keep their connection.
 */
import type { Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  startServer,
  type ServerOptions,
} from "../scripts/server/local-server.js";
import { KEYS, TEST_NOW, useHttpFixture } from "./helpers/http-setup.js";
import { parseRawResponse, type RawResponse } from "./helpers/raw-http.js";

const fixture = useHttpFixture();
const servers: Server[] = [];

/** A server on the fixture, with `options` over the defaults. */
async function serve(options: Partial<ServerOptions> = {}): Promise<string> {
  const { server, url } = await startServer({
    snapshotDir: fixture.snapshotDir,
    accessFile: fixture.accessFile,
    port: 0,
    now: () => TEST_NOW,
    onError: () => {},
    ...options,
  });
  servers.push(server);
  return url;
}

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

interface Trickled {
  response: RawResponse | undefined;
  /** Whether the client sent its whole body before the server closed the connection. */
  sentWhole: boolean;
}

/**
 * Sends `head`, then `pieces` pieces of body one at a time, until the server closes the connection
 * (or every piece is sent: a server that kept reading would only close when its timeout passed).
 */
function trickle(url: string, head: string, pieces: number, piece = "x", halfOpen = false): Promise<Trickled> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    // Half-open: a client that goes on sending after the server's FIN, rather than closing its half.
    const socket: Socket = connect({ port: Number(port), host: hostname, allowHalfOpen: halfOpen });
    let sent = 0;
    const done = (sentWhole: boolean) => {
      clearInterval(timer);
      socket.destroy();
      resolve({ response: parseRawResponse(Buffer.concat(received)), sentWhole });
    };
    const timer = setInterval(() => {
      if (sent === pieces) return done(true);
      sent++;
      socket.write(piece);
    }, 5);
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => done(false));
    socket.write(head);
  });
}

/** A request's head with `fields` (each a whole header line without its CRLF). */
const head = (requestLine: string, ...fields: string[]) =>
  `${requestLine}\r\nHost: x\r\n${fields.map((field) => `${field}\r\n`).join("")}\r\n`;

describe("an answer sent before the body was read closes the connection", () => {
  let base: string;
  beforeAll(async () => {
    base = await serve();
  });

  test.each([
    ["a keyless POST /mcp", head("POST /mcp HTTP/1.1", "Content-Type: application/json", "Content-Length: 2000")],
    ["a keyless GET with a body", head("GET /v1/films HTTP/1.1", "Content-Length: 2000")],
    ["a keyless chunked POST", head("POST /mcp HTTP/1.1", "Transfer-Encoding: chunked")],
    ["a wrong key's POST", head("POST /mcp HTTP/1.1", "Authorization: Bearer cl_not_a_key", "Content-Length: 2000")],
  ])("%s, its body trickling: 401 at once, Connection: close, closed", async (_what, request) => {
    const chunked = request.includes("chunked");
    const { response, sentWhole } = await trickle(base, request, 2000, chunked ? "1\r\nx\r\n" : "x");
    expect(response?.status).toBe(401);
    expect(response?.headers.connection).toBe("close");
    expect(sentWhole, "the server read the whole body instead of closing").toBe(false);
  });

  test("a key holder's POST past the body bound: 413, and closed before the rest is read", async () => {
    const request = head(
      "POST /mcp HTTP/1.1",
      `Authorization: Bearer ${KEYS.valid}`,
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
      "Content-Length: 70000",
    );
    const { response, sentWhole } = await trickle(base, `${request}${" ".repeat(65_600)}`, 2000);
    expect(response?.status).toBe(413);
    expect(response?.headers.connection).toBe("close");
    expect(sentWhole).toBe(false);
  });

  test("a keyless GET without a body: 401, and the connection closes", async () => {
    const { response, sentWhole } = await trickle(base, head("GET /v1/films HTTP/1.1"), 2000, "");
    expect(response?.status).toBe(401);
    expect(response?.headers.connection).toBe("close");
    expect(sentWhole).toBe(false);
  });

  test("a key holder's GETs keep their connection: two answers on one socket", async () => {
    const answers = await twoOnOneSocket(base, head("GET /v1/films HTTP/1.1", `Authorization: Bearer ${KEYS.valid}`));
    expect(answers.map((answer) => [answer.status, answer.headers.connection])).toEqual([
      [200, "keep-alive"],
      [200, "keep-alive"],
    ]);
  });
});

/** Sends `request` twice on one connection, the second once the first answer is whole. */
function twoOnOneSocket(url: string, request: string): Promise<RawResponse[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const answers: RawResponse[] = [];
    let received = Buffer.alloc(0);
    const socket = connect(Number(port), hostname);
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`closed after ${answers.length} answers`)));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseRawResponse(received);
      const whole = answer && received.indexOf("\r\n\r\n") + 4 + Number(answer.headers["content-length"]);
      if (!answer || !whole || received.length < whole) return;
      answers.push(answer);
      received = received.subarray(whole);
      if (answers.length === 2) {
        socket.removeAllListeners("close");
        socket.destroy();
        resolve(answers);
      } else socket.write(request);
    });
    socket.write(request);
  });
}

describe("deadlines (injected small; the defaults are the decision's)", () => {
  test("by default: headers within 10 s, the whole request within 30 s", async () => {
    await serve();
    const server = servers.at(-1)!;
    expect([server.headersTimeout, server.requestTimeout]).toEqual([HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS]);
    expect([HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS]).toEqual([10_000, 30_000]);
  });

  test("a keyless client that goes on sending after the 401: closed once the linger time passes", async () => {
    const url = await serve({ lingerMs: 100 });
    const request = head("POST /mcp HTTP/1.1", "Content-Length: 100000");
    const { response, sentWhole } = await trickle(url, request, 100_000, "x", true);
    expect([response?.status, response?.headers.connection]).toEqual([401, "close"]);
    expect(sentWhole).toBe(false);
  });

  test("a keyless client closing its half after the 401: closed then, not when the linger time ends", async () => {
    const url = await serve({ lingerMs: 600_000 });
    const { hostname, port } = new URL(url);
    const answer = await new Promise<{ response: RawResponse | undefined; closed: boolean }>((resolve) => {
      const received: Buffer[] = [];
      const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
      socket.on("data", (chunk: Buffer) => received.push(chunk));
      // The server's half closes with its answer; the client's then closes its own.
      socket.on("end", () => socket.end());
      socket.on("close", () => resolve({ response: parseRawResponse(Buffer.concat(received)), closed: true }));
      socket.write(head("GET /v1/films HTTP/1.1"));
    });
    expect([answer.response?.status, answer.response?.headers.connection, answer.closed]).toEqual([401, "close", true]);
  });

  test("headers that never end: 408 once the headers deadline passes, and closed", async () => {
    const url = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 5000 });
    const { response, sentWhole } = await trickle(url, "GET /v1/films HTTP/1.1\r\nHost: x\r\n", 100_000, "X-A: b\r\n");
    expect(response?.status).toBe(408);
    expect(sentWhole).toBe(false);
  });

  test("a key holder's body that never ends: 408 once the request deadline passes, and closed", async () => {
    const url = await serve({ headersTimeoutMs: 100, requestTimeoutMs: 300 });
    const request = head(
      "POST /mcp HTTP/1.1",
      `Authorization: Bearer ${KEYS.valid}`,
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
      "Content-Length: 60000",
    );
    const { response, sentWhole } = await trickle(url, request, 50_000, " ");
    expect(response?.status).toBe(408);
    expect(sentWhole).toBe(false);
  });
});
