/**
 * The checks of the MCP endpoint on a served deployment (decision: MCP), run by `npm run
 * verify:vercel` after the HTTP checks: the SDK's own client through the gateway, every tool's
 * answer against the HTTP API's for the same question, a bad argument, the gate's refusals, and
 * POSTs never served from the CDN cache.
 */
import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { showtimeListing } from "../../api/_core/mcp/showtime-listing.js";
import { assert, type Check, type HttpCheckContext, send } from "./http-checks.js";

const TOOLS = [
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

/** Runs `work` with a client connected to the deployment's /mcp with `key`, closed after. */
async function withClient<T>(ctx: HttpCheckContext, key: string, work: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", ctx.baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: "verify-vercel", version: "1.0.0" });
  await client.connect(transport);
  try {
    assert(transport.protocolVersion === LATEST_PROTOCOL_VERSION, `protocol ${transport.protocolVersion}`);
    return await work(client);
  } finally {
    await client.close();
  }
}

/** A raw POST to /mcp (what a client library never sends, or what the gate refuses). */
function post(ctx: HttpCheckContext, message: unknown, key?: string, method = "POST") {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  return send(ctx.baseUrl, "/mcp", { method, key, headers, body: JSON.stringify(message) });
}

const LIST_TOOLS = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

/** Where an MCP client looks for OAuth, which this API answers 404 (decision: MCP). */
const OAUTH_PATHS: Array<[string, string]> = [
  ["GET", "/.well-known/oauth-protected-resource/mcp"],
  ["GET", "/.well-known/oauth-protected-resource"],
  ["GET", "/.well-known/oauth-authorization-server"],
  ["GET", "/.well-known/openid-configuration"],
  ["POST", "/register"],
];

/** The API's JSON for a GET, with the valid key. */
async function apiJson(ctx: HttpCheckContext, path: string): Promise<any> {
  const answer = await send(ctx.baseUrl, path, { key: ctx.keys.valid });
  assert(answer.status === 200, `GET ${path}: ${answer.status}`);
  return answer.json();
}

/** Tool calls and the GET asking the same question, from records the deployment serves. */
async function sameQuestions(ctx: HttpCheckContext): Promise<Array<[string, Record<string, unknown>, string]>> {
  const showtime = (await apiJson(ctx, "/v1/showtimes?limit=1&include=cinema")).data[0];
  const { latitude, longitude } = showtime.cinema.location;
  const near = `${latitude},${longitude}`;
  const id = encodeURIComponent;
  return [
    [
      "find_films",
      { near, date: showtime.startsAt.slice(0, 10) },
      `/v1/films?near=${near}&date=${showtime.startsAt.slice(0, 10)}&limit=10`,
    ],
    ["find_cinemas", { filmId: showtime.filmId }, `/v1/cinemas?filmId=${id(showtime.filmId)}&limit=10`],
    [
      "find_showtimes",
      { cinemaId: showtime.cinemaId, limit: 20 },
      `/v1/showtimes?cinemaId=${id(showtime.cinemaId)}&include=film,cinema&limit=20`,
    ],
    ["get_film", { filmId: showtime.filmId }, `/v1/films/${id(showtime.filmId)}`],
    ["get_cinema", { cinemaId: showtime.cinemaId }, `/v1/cinemas/${id(showtime.cinemaId)}`],
    ["get_showtime", { showtimeId: showtime.id }, `/v1/showtimes/${id(showtime.id)}?include=film,cinema`],
    ["list_attributes", {}, "/v1/attributes?limit=100"],
    [
      "find_places",
      { q: showtime.cinema.location.locality },
      `/v1/places?limit=10&q=${id(showtime.cinema.location.locality)}`,
    ],
    // Its one market (decision: markets).
    ["list_markets", {}, "/markets"],
  ];
}

export const MCP_CHECKS: Check[] = [
  [
    "MCP: the SDK's client initializes through the gateway and lists the tools, each read-only",
    (ctx) =>
      withClient(ctx, ctx.keys.valid, async (client) => {
        const { tools } = await client.listTools();
        assert(
          isDeepStrictEqual(
            tools.map((t) => t.name),
            TOOLS,
          ),
          `tools: ${tools.map((t) => t.name).join(", ")}`,
        );
        assert(/The listings hold /.test(client.getInstructions() ?? ""), "the instructions name no dates of the data");
        assert(
          tools.every((t) => t.annotations?.readOnlyHint === true),
          "a tool is not marked read-only",
        );
        return `${LATEST_PROTOCOL_VERSION}, ${tools.length} tools`;
      }),
  ],
  [
    "MCP: every tool answers what the HTTP API answers for the same question",
    (ctx) =>
      withClient(ctx, ctx.keys.valid, async (client) => {
        const questions = await sameQuestions(ctx);
        for (const [name, args, path] of questions) {
          const result = (await client.callTool({ name, arguments: args })) as any;
          assert(!result.isError, `${name}: ${result.content?.[0]?.text}`);
          const api = await apiJson(ctx, path);
          // find_showtimes lists the page's films and cinemas once (decision: MCP, a page of showtimes).
          const expected = name === "find_showtimes" ? showtimeListing(api) : api;
          assert(isDeepStrictEqual(result.structuredContent, expected), `${name} differs from GET ${path}`);
        }
        return `${questions.length} tools`;
      }),
  ],
  [
    "MCP: a bad argument is a tool error with the API's message",
    (ctx) =>
      withClient(ctx, ctx.keys.valid, async (client) => {
        const result = (await client.callTool({ name: "find_showtimes", arguments: { date: "2027-02-29" } })) as any;
        const expected = (await send(ctx.baseUrl, "/v1/showtimes?date=2027-02-29", { key: ctx.keys.valid })).json();
        assert(result.isError === true, "not a tool error");
        assert(result.content[0].text === expected.error.message, `${result.content[0].text}`);
        return result.content[0].text;
      }),
  ],
  [
    "MCP: no key 401 with WWW-Authenticate, an unknown key 401, a lapsed organization 403, before the SDK reads a byte",
    async (ctx) => {
      const none = await post(ctx, LIST_TOOLS);
      assert(
        none.status === 401 && none.headers["www-authenticate"] === 'Bearer realm="cinema-listings"',
        `${none.status}`,
      );
      const unknown = await post(ctx, LIST_TOOLS, "cl_not_a_key");
      assert(unknown.status === 401 && unknown.json().error.code === "unauthorized", `${unknown.status}`);
      const lapsed = await post(ctx, LIST_TOOLS, ctx.keys.lapsed);
      assert(lapsed.status === 403 && lapsed.json().error.code === "entitlement_required", `${lapsed.status}`);
      return "401, 401, 403";
    },
  ],
  [
    "MCP: no OAuth: a wrong key's 401 reaches the SDK's client in the API's words; OAuth's paths are 404s",
    async (ctx) => {
      const error = await withClient(ctx, "cl_not_a_key", async () => "connected").catch((thrown: Error) => thrown);
      assert(error instanceof Error && error.message.includes("The API key is not valid"), `client: ${error}`);
      for (const [method, path] of OAUTH_PATHS) {
        const answer = await send(ctx.baseUrl, path, { method, headers: { "content-type": "application/json" } });
        const code = answer.status === 404 ? answer.json().error.code : undefined;
        assert(
          code === "not_found" && answer.headers["www-authenticate"] === undefined,
          `${method} ${path}: ${answer.status}`,
        );
      }
      return `401 in the client's error; ${OAUTH_PATHS.length} paths 404`;
    },
  ],
  [
    "MCP: POSTs are never served from the CDN cache; GET is a 405",
    async (ctx) => {
      const answers = [await post(ctx, LIST_TOOLS, ctx.keys.valid), await post(ctx, LIST_TOOLS, ctx.keys.valid)];
      for (const answer of answers) {
        assert(answer.status === 200, `POST: ${answer.status}`);
        assert(answer.headers["x-vercel-cache"] !== "HIT", "a POST came from the cache");
        assert(answer.headers["cache-control"] === "no-store", `Cache-Control: ${answer.headers["cache-control"]}`);
        assert(answer.headers["vercel-cdn-cache-control"] === undefined, "Vercel-CDN-Cache-Control reached the client");
        assert(/^[0-9a-f-]{36}$/.test(answer.headers["x-request-id"] ?? ""), "no request id");
      }
      const get = await send(ctx.baseUrl, "/mcp", { key: ctx.keys.valid });
      assert(get.status === 405 && get.headers.allow === "POST", `GET: ${get.status}, Allow ${get.headers.allow}`);
      return `x-vercel-cache ${answers.map((a) => a.headers["x-vercel-cache"]).join(", ")}`;
    },
  ],
];
