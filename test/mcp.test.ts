/**
 * The MCP endpoint as an assistant's client uses it (decision: MCP): the SDK's own Client over
 * real HTTP against the local server (scripts/server/local-server.ts, as npm start serves it) on
 * the demo data, and once against `npm run serve`'s CommonJS bundle in its own process. Every tool's
 * structured answer is the HTTP API's JSON for the same question; a bad argument is a tool error
 * with the API's own message; the gate, the bounds and the log are the API's.
 */
import type { Server } from "node:http";
import path from "node:path";
import { build } from "esbuild";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RequestLog } from "../api/_core/handle-request.js";
import { LIST_TABLES } from "../api/_core/endpoints/parse-request.js";
import { namesOf } from "../api/_core/endpoints/parameters/parameter.js";
import { PLACE_PARAMETERS } from "../api/_core/endpoints/parameters/places.js";
import { toolDefinitions } from "../api/_core/mcp/tools.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { startProcess } from "./helpers/child-processes.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import { ACCEPT_BOTH, connectMcp, postMcp, rpc } from "./helpers/mcp-session.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

let root: string;
let server: Server;
let base: string;
const logs: RequestLog[] = [];

beforeAll(async () => {
  root = makeTempDir("mcp");
  const built = await runBuild({
    dataDir: path.join(ROOT, "data"),
    output: createDiskWriter(path.join(root, "snapshot")),
    gzipWorkers: 0,
  });
  if (!built.ok) throw new Error("data/ does not build");
  const started = await startServer({
    snapshotDir: path.join(root, "snapshot"),
    accessFile: writeAccessFile(root),
    port: 0,
    now: () => TEST_NOW,
    onLog: (entry) => logs.push(entry),
    onError: () => {},
  });
  server = started.server;
  base = started.url;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  removeDir(root);
});

/** The HTTP API's answer to a GET, as JSON. */
async function api(target: string, key: string = KEYS.valid): Promise<{ status: number; body: any }> {
  const response = await fetch(new URL(target, base), { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: await response.json() };
}

/** A tool's result (the text of its first content item alongside). */
async function call(name: string, args: Record<string, unknown>) {
  const { client } = await connectMcp(base, KEYS.bulk);
  try {
    const result = (await client.callTool({ name, arguments: args })) as any;
    return { ...result, text: result.content[0].text as string };
  } finally {
    await client.close();
  }
}

/** A page of records with no provenance anywhere: what find_showtimes's listing leaves out. */
function withoutProvenance(value: any): any {
  if (Array.isArray(value)) return value.map(withoutProvenance);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "provenance")
      .map(([key, member]) => [key, withoutProvenance(member)]),
  );
}

/** find_showtimes's listing with each showtime's film and cinema put back in it, as `include` embeds them. */
function joined({ films, cinemas, data, ...page }: any): any {
  const byId = (records: any[]) => new Map(records.map((record) => [record.id, record]));
  const [film, cinema] = [byId(films), byId(cinemas)];
  expect(film.size).toBe(films.length);
  expect(cinema.size).toBe(cinemas.length);
  const showtimes = data.map((s: any) => ({ ...s, film: film.get(s.filmId), cinema: cinema.get(s.cinemaId) }));
  return { ...page, data: showtimes };
}

const TOOL_NAMES = [
  "find_films",
  "find_cinemas",
  "find_showtimes",
  "get_film",
  "get_cinema",
  "get_showtime",
  "list_attributes",
  "find_places",
  "list_markets",
];

describe("a session", () => {
  test("initialize: the current protocol revision, the server's name and instructions, tools only", async () => {
    const { client, transport } = await connectMcp(base, KEYS.valid);
    try {
      expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
      expect(client.getServerVersion()).toEqual({
        name: "cinema-listings",
        title: "Cinema listings",
        version: "1.0.0",
      });
      expect(client.getServerCapabilities()).toEqual({ tools: {} });
      expect(client.getInstructions()).toMatch(/local time/);
    } finally {
      await client.close();
    }
  });

  test("tools/list: every tool, read-only, its arguments the endpoint's parameters (limit 1..20)", async () => {
    const { client } = await connectMcp(base, KEYS.valid);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
      for (const tool of tools) {
        expect(tool.annotations).toMatchObject({
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        });
        expect(tool.outputSchema).toMatchObject({ type: "object", required: expect.arrayContaining(["data"]) });
      }
      const properties = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties!);
      expect(properties("find_films").sort()).toEqual(namesOf(LIST_TABLES.films).sort());
      expect(properties("find_cinemas").sort()).toEqual(namesOf(LIST_TABLES.cinemas).sort());
      expect(properties("find_showtimes").sort()).toEqual(
        namesOf(LIST_TABLES.showtimes)
          .filter((n) => n !== "include")
          .sort(),
      );
      expect(properties("get_showtime")).toEqual(["showtimeId"]);
      expect(properties("find_places").sort()).toEqual(namesOf(PLACE_PARAMETERS).sort());
      const limit = tools[0]!.inputSchema.properties!.limit as Record<string, unknown>;
      expect(limit).toMatchObject({ type: "integer", minimum: 1, maximum: 20, default: 10 });
    } finally {
      await client.close();
    }
  });

  /** A tool call and the GET that asks the same question (tools add their limit, showtimes their embeds). */
  const SAME_QUESTION: Array<[string, Record<string, unknown>, string]> = [
    [
      "find_films",
      { near: "52.52,13.405", date: "2026-11-27" },
      "/v1/films?near=52.52,13.405&date=2026-11-27&limit=10",
    ],
    ["find_films", { q: "orbit" }, "/v1/films?q=orbit&limit=10"],
    [
      "find_films",
      { countryCode: "GB", attributeIds: "format-imax,lang-en", limit: 20 },
      "/v1/films?countryCode=GB&attributeIds=format-imax,lang-en&limit=20",
    ],
    [
      "find_cinemas",
      { filmId: "film-orbit-of-ash", near: "53.4776,-2.2497", radiusKm: 400, date: "2026-11-27" },
      "/v1/cinemas?filmId=film-orbit-of-ash&near=53.4776,-2.2497&radiusKm=400&date=2026-11-27&limit=10",
    ],
    ["find_cinemas", { q: "munchen" }, "/v1/cinemas?q=munchen&limit=10"],
    [
      "find_showtimes",
      { cinemaId: "gb-lon-odeon-leicester-sq", date: "2026-11-27", dayStartsAt: "03:00" },
      "/v1/showtimes?cinemaId=gb-lon-odeon-leicester-sq&date=2026-11-27&dayStartsAt=03:00&include=film,cinema&limit=10",
    ],
    [
      "find_showtimes",
      {
        near: "53.4776,-2.2497",
        radiusKm: 5,
        filmId: "film-orbit-of-ash",
        startsAfter: "2026-11-23T12:00Z",
        attributeIds: "format-imax",
        limit: 20,
      },
      "/v1/showtimes?near=53.4776,-2.2497&radiusKm=5&filmId=film-orbit-of-ash&startsAfter=2026-11-23T12:00Z" +
        "&attributeIds=format-imax&include=film,cinema&limit=20",
    ],
    ["get_film", { filmId: "film-orbit-of-ash" }, "/v1/films/film-orbit-of-ash"],
    ["get_cinema", { cinemaId: "de-ber-cinemaxx-potsdamer-platz" }, "/v1/cinemas/de-ber-cinemaxx-potsdamer-platz"],
    [
      "get_showtime",
      { showtimeId: "st-de-ber-cinemaxx-20261127-1345-s1" },
      "/v1/showtimes/st-de-ber-cinemaxx-20261127-1345-s1?include=film,cinema",
    ],
    ["list_attributes", { limit: 20 }, "/v1/attributes?limit=20"],
    // The whole catalogue by default (decision: MCP): more than the other tools' 10.
    ["list_attributes", {}, "/v1/attributes?limit=100"],
    ["find_places", { q: "london" }, "/v1/places?q=london&limit=10"],
    // A deployment without markets: its one market (decision: markets).
    ["list_markets", {}, "/markets"],
  ];

  test.each(SAME_QUESTION)("%s %j answers what GET %s answers", async (name, args, target) => {
    const [result, answer] = await Promise.all([call(name, args), api(target)]);
    expect(answer.status).toBe(200);
    expect(result.isError).toBeFalsy();
    if (name === "find_showtimes") expect(joined(result.structuredContent)).toEqual(withoutProvenance(answer.body));
    else expect(result.structuredContent).toEqual(answer.body);
    // Not two empty pages that happen to agree.
    expect(Array.isArray(answer.body.data) ? answer.body.data.length : 1).toBeGreaterThan(0);
  });

  test("list_attributes: the whole catalogue in one call, past the other tools' page of 10", async () => {
    const result = await call("list_attributes", {});
    const { body } = await api("/v1/attributes?limit=100");
    expect(body.data.length).toBeGreaterThan(10);
    expect(result.structuredContent.data).toHaveLength(body.data.length);
    expect(result.structuredContent.pagination).toEqual({ nextCursor: null, hasMore: false });
    expect(result.text).toContain("format-imax");
    expect(result.text.split("\n").at(-1)).toBe("That is all of them.");
  });

  test("find_showtimes: a page of 20 in at most half the API's characters, each film and cinema once", async () => {
    const { client } = await connectMcp(base, KEYS.bulk);
    try {
      // Listed first, so the SDK's client checks the structured content against the output schema.
      await client.listTools();
      const result = (await client.callTool({ name: "find_showtimes", arguments: { limit: 20 } })) as any;
      const { body } = await api("/v1/showtimes?include=film,cinema&limit=20");
      const listing = result.structuredContent;
      expect(listing.data).toHaveLength(20);
      expect(JSON.stringify(listing).length).toBeLessThanOrEqual(JSON.stringify(body).length / 2);
      const ids = (records: Array<{ id: string }>) => records.map((record) => record.id);
      expect(ids(listing.films)).toEqual([...new Set(body.data.map((s: any) => s.filmId))]);
      expect(ids(listing.cinemas)).toEqual([...new Set(body.data.map((s: any) => s.cinemaId))]);
      expect(joined(listing)).toEqual(withoutProvenance(body));
    } finally {
      await client.close();
    }
  });

  test("every tool is asked at least once above", () => {
    expect(new Set(SAME_QUESTION.map(([name]) => name))).toEqual(new Set(TOOL_NAMES));
  });

  test("a page, then the next by its cursor, as the API pages", async () => {
    const first = await call("find_showtimes", { cinemaId: "gb-lon-odeon-leicester-sq", limit: 3 });
    const cursor = first.structuredContent.pagination.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    expect(first.text).toContain(`cursor "${cursor}"`);
    const second = await call("find_showtimes", { cinemaId: "gb-lon-odeon-leicester-sq", limit: 3, cursor });
    const answer = await api(
      `/v1/showtimes?cinemaId=gb-lon-odeon-leicester-sq&include=film,cinema&limit=3&cursor=${cursor}`,
    );
    expect(joined(second.structuredContent)).toEqual(withoutProvenance(answer.body));
  });

  test("the text: each start in the cinema's local time with its zone, the distance, the booking URL", async () => {
    const result = await call("find_showtimes", { near: "52.52,13.405", date: "2026-11-27", limit: 1 });
    const { nextCursor } = result.structuredContent.pagination;
    expect(result.text.split("\n")).toEqual([
      "1 showtime:",
      "- Orbit of Ash · Fri 27 Nov 2026, 13:45–16:13 Europe/Berlin",
      "  CinemaxX Berlin Potsdamer Platz, Berlin · 2.451 km away · Kino 1 · format-3d, lang-de",
      "  Book: https://www.cinemaxx.de/kinoprogramm/berlin-potsdamer-platz/booking/9910430",
      "  showtime st-de-ber-cinemaxx-20261127-1345-s1 · film film-orbit-of-ash · " +
        "cinema de-ber-cinemaxx-potsdamer-platz",
      `More: call find_showtimes again with the same arguments and cursor "${nextCursor}".`,
    ]);
  });

  test("the text of cinemas near a point: address, distance, zone, the first matching showtime there", async () => {
    const result = await call("find_cinemas", { filmId: "film-orbit-of-ash", near: "53.48,-2.25", date: "2026-11-27" });
    expect(result.text).toBe(
      [
        "1 cinema:",
        "- Cineworld Manchester Great Northern · cinema gb-man-cineworld-great-northern",
        "  235 Deansgate, M3 4EN Manchester, GB · at 53.4776,-2.2497 · 0.268 km away · time zone Europe/London",
        "  3 matching showtimes, the first Fri 27 Nov 2026, 13:40 Europe/London",
        "That is all of them.",
      ].join("\n"),
    );
  });
});

const long = (n: number) => "x".repeat(n);
const ids = (n: number) => Array.from({ length: n }, (_, i) => `a${i}`).join(",");

describe("bad arguments: a tool error with the message the HTTP API gives for the same parameter", () => {
  /** Valid at the bound: a tool result, not an error. */
  test.each<[string, Record<string, unknown>]>([
    ["find_films", { limit: 20 }],
    ["find_films", { limit: 1 }],
    ["find_films", { limit: "20" }],
    ["find_films", { q: long(100) }],
    ["find_films", { q: null }],
    ["find_cinemas", { near: "90,180", radiusKm: 500 }],
    ["find_showtimes", { attributeIds: "lang-en,format-imax" }],
    ["find_showtimes", { cinemaId: long(160) }],
    ["find_showtimes", { date: "2028-02-29", dayStartsAt: "05:59" }],
    ["list_attributes", { limit: 100 }],
  ])("%s %j: at the bound, answered", async (name, args) => {
    const result = await call(name, args);
    expect(result.isError, result.text).toBeFalsy();
  });

  /** Past the bound, where the HTTP API has the same parameter: its message, word for word. */
  test.each<[string, Record<string, unknown>, string]>([
    ["find_films", { q: long(101) }, `/v1/films?q=${long(101)}`],
    ["find_films", { cursor: "not-a-cursor" }, "/v1/films?cursor=not-a-cursor"],
    ["find_cinemas", { near: "90.0000001,0" }, "/v1/cinemas?near=90.0000001,0"],
    ["find_cinemas", { near: "0,0", radiusKm: 500.0000001 }, "/v1/cinemas?near=0,0&radiusKm=500.0000001"],
    ["find_cinemas", { radiusKm: 5 }, "/v1/cinemas?radiusKm=5"],
    ["find_showtimes", { attributeIds: ids(33) }, `/v1/showtimes?attributeIds=${ids(33)}`],
    // 32 ids pass the parser; the snapshot knows none of them (decision: known attribute ids).
    ["find_showtimes", { attributeIds: ids(32) }, `/v1/showtimes?attributeIds=${ids(32)}`],
    ["find_films", { anyAttributeIds: "IMAX" }, "/v1/films?anyAttributeIds=IMAX"],
    ["find_showtimes", { cinemaId: long(161) }, `/v1/showtimes?cinemaId=${long(161)}`],
    ["find_showtimes", { date: "2027-02-29" }, "/v1/showtimes?date=2027-02-29"],
    ["find_showtimes", { date: "2027-02-28", dayStartsAt: "06:00" }, "/v1/showtimes?date=2027-02-28&dayStartsAt=06:00"],
    ["find_showtimes", { startsAfter: "2026-11-27T17:00 01:00" }, "/v1/showtimes?startsAfter=2026-11-27T17:00+01:00"],
    ["get_film", { filmId: long(161) }, `/v1/films/${long(161)}`],
    ["get_cinema", { cinemaId: long(161) }, `/v1/cinemas/${long(161)}`],
    ["get_showtime", { showtimeId: long(161) }, `/v1/showtimes/${long(161)}`],
    ["get_film", { filmId: "no-such-film" }, "/v1/films/no-such-film"],
  ])("%s %j: the message of GET %s", async (name, args, target) => {
    const [result, answer] = await Promise.all([call(name, args), api(target)]);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.text).toBe(answer.body.error.message);
  });

  /** find_showtimes's arguments, in its input schema's order. */
  const SHOWTIME_ARGUMENTS = Object.keys(
    (toolDefinitions().find((tool) => tool.name === "find_showtimes")!.inputSchema as { properties: object })
      .properties,
  ).join(", ");

  /** The tools' own rules: their limit, their argument names, JSON types, a required id. */
  test.each<[string, Record<string, unknown>, string]>([
    ["find_films", { limit: 21 }, "limit: must be a whole number from 1 to 20 written in digits"],
    ["find_films", { limit: 0 }, "limit: must be a whole number from 1 to 20 written in digits"],
    ["find_films", { limit: 1.5 }, "limit: must be a whole number from 1 to 20 written in digits"],
    ["list_attributes", { limit: 101 }, "limit: must be a whole number from 1 to 100 written in digits"],
    ["find_films", { limit: [1] }, "limit: must be a number, as the tool's input schema says"],
    ["find_films", { q: true }, "q: must be a string, as the tool's input schema says"],
    ["find_films", { q: "\ud800" }, "q: must be valid Unicode text (it holds half of a surrogate pair)"],
    [
      "find_showtimes",
      { include: "film" },
      `include: is not an argument of find_showtimes (allowed: ${SHOWTIME_ARGUMENTS})`,
    ],
    ["find_showtimes", { q: "dune" }, `q: is not an argument of find_showtimes (allowed: ${SHOWTIME_ARGUMENTS})`],
    ["get_film", {}, "filmId: is required"],
    ["get_film", { filmId: "" }, "filmId: must not be empty"],
    ["get_cinema", { cinemaId: "x", limit: 1 }, "limit: is not an argument of get_cinema (allowed: cinemaId)"],
  ])("%s %j: %s", async (name, args, message) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(message);
  });

  test("an unknown tool is a protocol error, as the SDK answers it", async () => {
    const { client } = await connectMcp(base, KEYS.bulk);
    try {
      await expect(client.callTool({ name: "book_tickets", arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("Unknown tool: book_tickets"),
      });
    } finally {
      await client.close();
    }
  });
  test.each<[string, unknown, string]>([
    ["params not an object", "find_films", "params must be an object: {name, arguments}"],
    ["a name that is not a string", { name: 5 }, "params.name must be the name of a tool (a string)"],
    ["arguments as a string", { name: "find_films", arguments: "dune" }, "params.arguments must be an object"],
    ["arguments as an array", { name: "find_films", arguments: [] }, "params.arguments must be an object"],
  ])("a tools/call with %s: -32602 saying what to fix", async (_what, params, message) => {
    const answer = await postMcp(base, { jsonrpc: "2.0", id: 9, method: "tools/call", params }, { key: KEYS.valid });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32602, message: expect.stringContaining(`Invalid params: ${message}`) },
    });
  });

  test("a tools/call without arguments is a call with none", async () => {
    const bare = await postMcp(base, rpc("tools/call", { name: "list_attributes" }), { key: KEYS.valid });
    const empty = await postMcp(base, rpc("tools/call", { name: "list_attributes", arguments: {} }), {
      key: KEYS.valid,
    });
    expect(bare.json().result.structuredContent.data.length).toBeGreaterThan(0);
    expect(bare.json()).toEqual(empty.json());
  });
});

describe("the gate: the same as every request, before the SDK reads anything", () => {
  test("no key: the SDK client is refused with 401, which carries WWW-Authenticate", async () => {
    await expect(connectMcp(base)).rejects.toMatchObject({ code: 401 });
    const answer = await postMcp(base, rpc("tools/list"));
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="cinema-listings"');
    expect(answer.json().error.code).toBe("unauthorized");
  });

  test.each([
    ["a revoked key", KEYS.revoked, 401, "unauthorized"],
    ["an unpaid organization", KEYS.cancelled, 403, "entitlement_required"],
  ])("%s: %s %s", async (_what, key, status, code) => {
    await expect(connectMcp(base, key)).rejects.toMatchObject({ code: status });
    const answer = await postMcp(base, rpc("tools/list"), { key });
    expect([answer.status, answer.json().error.code]).toEqual([status, code]);
    if (status === 401) expect(answer.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });

  test("every MCP request counts against the rate limit: 429 with Retry-After past it", async () => {
    // tiny-co may make 3 requests a minute (the clock is fixed).
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await postMcp(base, rpc("tools/list"), { key: KEYS.tiny })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await postMcp(base, rpc("tools/list"), { key: KEYS.tiny2 });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("39");
    expect(refused.json().error.code).toBe("rate_limited");
  });

  test("request log lines name the organization, and the tool a call named", async () => {
    logs.length = 0;
    await call("get_film", { filmId: "film-orbit-of-ash" });
    await postMcp(base, rpc("tools/list"), { key: KEYS.cancelled });
    // The client's GET (its try at an event stream, answered 405) may come at any time: POSTs only.
    const lines = logs
      .filter((line) => line.method === "POST")
      .map(({ organization, path, status, tool }) => ({ organization, path, status, tool }));
    expect(lines).toEqual([
      { organization: "bulk", path: "/mcp", status: 200, tool: undefined },
      { organization: "bulk", path: "/mcp", status: 202, tool: undefined },
      { organization: "bulk", path: "/mcp", status: 200, tool: "get_film" },
      { organization: "cancelled-co", path: "/mcp", status: 403, tool: undefined },
    ]);
  });
});

describe("no OAuth: bearer keys only (decision: MCP)", () => {
  const NO_OAUTH = /^This API has no OAuth: it takes an API key, sent as the header Authorization: Bearer <API_KEY>/;

  test("a wrong key: the SDK client's error carries the API's 401 message, and it asked nothing else", async () => {
    logs.length = 0;
    const error = await connectMcp(base, "cl_not_a_key").catch((thrown: Error) => thrown);
    expect(error).toMatchObject({ code: 401 });
    expect((error as Error).message).toContain("The API key is not valid (unknown, revoked or expired).");
    // No metadata looked for, no client registered: one POST, refused.
    expect(logs.map(({ method, path, status }) => [method, path, status])).toEqual([["POST", "/mcp", 401]]);
  });

  test.each([
    ["no key", undefined],
    ["a wrong key", "cl_not_a_key"],
  ])("%s: the 401's challenge points at no resource metadata", async (_what, key) => {
    const challenge = (await postMcp(base, rpc("tools/list"), { key })).headers.get("www-authenticate");
    expect(challenge).toMatch(/^Bearer realm="cinema-listings"/);
    expect(challenge).not.toMatch(/resource_metadata|scope/);
  });

  const DISCOVERY: Array<[string, string]> = [
    ["GET", "/.well-known/oauth-protected-resource/mcp"],
    ["GET", "/.well-known/oauth-protected-resource"],
    ["GET", "/.well-known/oauth-authorization-server"],
    ["GET", "/.well-known/oauth-authorization-server/mcp"],
    ["GET", "/.well-known/openid-configuration"],
    ["GET", "/.well-known/openid-configuration/mcp"],
    ["POST", "/register"],
    ["GET", "/register?x=1"],
  ];

  test.each(DISCOVERY)(
    "%s %s: a 404 in the API's envelope, with a key or without, saying to send one",
    async (method, target) => {
      for (const key of [undefined, KEYS.valid]) {
        const response = await fetch(new URL(target, base), {
          method,
          headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), "content-type": "application/json" },
          body:
            method === "POST"
              ? JSON.stringify({ client_name: "x", redirect_uris: ["http://localhost/cb"] })
              : undefined,
        });
        const body = (await response.json()) as { error: { code: string; message: string; requestId: string } };
        expect(response.status).toBe(404);
        expect(body.error).toMatchObject({ code: "not_found", message: expect.stringMatching(NO_OAUTH) });
        expect(body.error.requestId).toBe(response.headers.get("x-request-id"));
        expect(response.headers.get("www-authenticate")).toBeNull();
        expect(response.headers.get("cache-control")).toBe("no-store");
      }
    },
  );

  test.each(["/.well-known/other", "/.well-known/oauth-protected-resourcex", "/registered", "/register/x"])(
    "%s is no such path: without a key, the 401 every unknown path gets",
    async (target) => {
      expect((await fetch(new URL(target, base))).status).toBe(401);
    },
  );

  test("an OAuth client (the SDK's, with an auth provider) finds no metadata; /register's 404 says why", async () => {
    logs.length = 0;
    const saved: unknown[] = [];
    const provider: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1:1/callback",
      clientMetadata: { client_name: "tests", redirect_uris: ["http://127.0.0.1:1/callback"] },
      clientInformation: () => undefined,
      saveClientInformation: (information) => void saved.push(information),
      tokens: () => undefined,
      saveTokens: (tokens) => void saved.push(tokens),
      redirectToAuthorization: () => {
        throw new Error("no authorization server to go to");
      },
      saveCodeVerifier: () => {},
      codeVerifier: () => "",
    };
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), {
      authProvider: provider,
      requestInit: { headers: { authorization: "Bearer cl_not_a_key" } },
    });
    const error = await new Client({ name: "oauth-client", version: "1.0.0" })
      .connect(transport)
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^HTTP 404: /);
    expect((error as Error).message).toContain("This API has no OAuth");
    expect(saved).toEqual([]);
    expect(logs.map(({ path, status }) => [path, status])).toEqual([
      ["/mcp", 401],
      ["/.well-known/oauth-protected-resource/mcp", 404],
      ["/.well-known/oauth-protected-resource", 404],
      ["/.well-known/oauth-authorization-server", 404],
      ["/.well-known/openid-configuration", 404],
      ["/register", 404],
    ]);
  });
});

describe("HTTP: one JSON-RPC message per POST, bounded, answered as JSON and never cached", () => {
  test("a POST's answer: JSON, no-store, the caller's headers", async () => {
    const answer = await postMcp(base, rpc("tools/list"), { key: KEYS.valid });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.get("ratelimit-policy")).toBe('"org";q=600;w=60');
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("mcp-session-id")).toBeNull();
    expect(answer.json().result.tools).toHaveLength(TOOL_NAMES.length);
  });

  test.each(["GET", "DELETE", "PUT"])("%s: 405, Allow: POST (stateless: no stream, no session)", async (method) => {
    const answer = await postMcp(base, undefined, { key: KEYS.valid, method });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
    expect(answer.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
  });

  test("GET without a key: the gate answers first (401)", async () => {
    expect((await postMcp(base, undefined, { method: "GET" })).status).toBe(401);
  });

  /** A tools/list padded with spaces to exactly `bytes` bytes. */
  const padded = (bytes: number) => {
    const message = JSON.stringify(rpc("tools/list"));
    return message + " ".repeat(bytes - message.length);
  };

  test.each([
    ["at the bound, 64 KiB", 65_536, 200],
    ["one byte past it", 65_537, 413],
  ])("a body %s: %s", async (_what, bytes, status) => {
    const answer = await postMcp(base, padded(bytes), { key: KEYS.valid });
    expect(answer.status).toBe(status);
    if (status === 413)
      expect(answer.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: -32000, message: "Payload Too Large: Request body must not exceed 65536 bytes" },
        id: null,
      });
  });

  test("a body past the bound sent without a length (chunked): 413 all the same", async () => {
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 70; i++) controller.enqueue(new TextEncoder().encode(" ".repeat(1024)));
        controller.close();
      },
    });
    const response = await fetch(new URL("/mcp", base), {
      method: "POST",
      headers: { authorization: `Bearer ${KEYS.valid}`, "content-type": "application/json", accept: ACCEPT_BOTH },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  test.each<[string, unknown, Record<string, string>, number, number]>([
    ["JSON that does not parse", "{not json", {}, 400, -32700],
    ["a batch (the current revision has none)", [rpc("tools/list"), rpc("ping", {}, 2)], {}, 400, -32600],
    ["another media type", JSON.stringify(rpc("tools/list")), { "content-type": "text/plain" }, 415, -32000],
    [
      "an Accept without text/event-stream",
      JSON.stringify(rpc("tools/list")),
      { accept: "application/json" },
      406,
      -32000,
    ],
    [
      "a protocol revision the SDK does not know",
      JSON.stringify(rpc("tools/list")),
      { "mcp-protocol-version": "1999-01-01" },
      400,
      -32000,
    ],
  ])("%s: %s, as the SDK answers it", async (_what, body, headers, status, code) => {
    const answer = await postMcp(base, body, { key: KEYS.valid, headers });
    expect(answer.status).toBe(status);
    expect(answer.json()).toMatchObject({ jsonrpc: "2.0", error: { code }, id: null });
    expect(answer.text).not.toMatch(/\bat \/|node_modules|\.ts:/);
  });
});

describe("npm run serve: the server bundled as that script bundles it (CommonJS, packages external)", () => {
  const dir = path.join(ROOT, "test/artifacts", `mcp-serve-${process.pid}`);
  afterAll(() => removeDir(dir));

  test("the SDK's client calls a tool over it, and gets what the HTTP API gives", async () => {
    const bundle = path.join(dir, "serve.cjs");
    await build({
      entryPoints: [path.join(ROOT, "scripts/serve.ts")],
      bundle: true,
      platform: "node",
      format: "cjs",
      packages: "external",
      outfile: bundle,
      logLevel: "warning",
    });
    const args = ["--snapshot", path.join(root, "snapshot"), "--access", path.join(root, "access.json"), "--port", "0"];
    const child = startProcess(process.execPath, [bundle, ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout!.on("data", (chunk: Buffer) => {
          out += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const { client } = await connectMcp(url, KEYS.bulk);
      const result = (await client.callTool({ name: "get_film", arguments: { filmId: "film-orbit-of-ash" } })) as any;
      await client.close();
      const answer = await fetch(`${url}/v1/films/film-orbit-of-ash`, {
        headers: { authorization: `Bearer ${KEYS.bulk}` },
      });
      expect(result.structuredContent).toEqual(await answer.json());
    } finally {
      child.kill("SIGTERM");
    }
  });
});
