/**
 * The gateway (decision: CDN-cached bodies) as Vercel runs it, a web Request in and a Response
 * out. The deployed pair (gateway forwarding to the function's internal path) answers every
 * request exactly as the one-process core does, statuses, bodies and headers, request ids aside;
 * the internal answers hold nothing that varies by caller; the rewrite carries no key; anything
 * but the gateway at the internal prefix is a 404.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import { createGateway, type Forward, type Gateway } from "../api/_adapters/gateway.js";
import { fileAccess, staticAccess } from "../api/_core/gate/access.js";
import { parseCorsOrigins } from "../api/_core/gate/cors.js";
import type { CoreResponse } from "../api/_core/exchange.js";
import { SnapshotError } from "../api/_core/format/primitives/errors.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler, type Handler, type RequestLog } from "../api/_core/handle-request.js";
import { GATEWAY_TOKEN_HEADER } from "../api/_core/gate/internal-path.js";
import { memoryRateLimiter } from "../api/_core/gate/rate-limit.js";
import { auth, KEYS, TEST_NOW, useHttpFixture } from "./helpers/http-setup.js";

const fixture = useHttpFixture();
const SECRET = "gateway-secret-for-tests";
const APP = "https://app.example.com";
const BASE = "https://api.example";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One request as a list of header pairs (a field may repeat). */
interface Sent {
  method?: string;
  path: string;
  headers?: Array<[string, string]>;
}

function fromCore(response: CoreResponse): Answer {
  return { status: response.status, headers: { ...response.headers }, body: Buffer.from(response.body) };
}

async function fromWeb(response: Response): Promise<Answer> {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** Everything but the request id, which is each request's own. */
function comparable(answer: Answer) {
  const { "x-request-id": requestId, ...headers } = answer.headers;
  const text = answer.body.toString("latin1");
  return { status: answer.status, headers, body: requestId ? text.replaceAll(requestId, "<id>") : text, requestId };
}

describe("the deployed pair answers as the one-process core", () => {
  let local: Handler;
  let gateway: Gateway;
  const internal: Answer[] = [];
  const forwarded: Array<{ url: string; headers: Record<string, string> }> = [];

  beforeAll(() => {
    const common = {
      access: fileAccess(fixture.accessFile),
      now: () => TEST_NOW,
      corsOrigins: parseCorsOrigins(APP),
    };
    const snapshots = new SnapshotSource(fixture.snapshotDir);
    local = createHandler({
      ...common,
      snapshots: new SnapshotSource(fixture.snapshotDir),
      limiter: memoryRateLimiter(),
    });
    const fn = createHandler({ ...common, snapshots, gatewaySecret: SECRET });
    // The function behind the CDN, called in process: what the platform would forward.
    const forward: Forward = async (url, method, headers) => {
      forwarded.push({ url: `${url.pathname}${url.search}`, headers: Object.fromEntries(headers) });
      const answer = fromCore(
        await fn({ method, url: `${url.pathname}${url.search}`, headers: Object.fromEntries(headers) }),
      );
      internal.push({ ...answer, headers: { ...answer.headers } });
      // The CDN keeps Vercel-CDN-Cache-Control to itself.
      delete answer.headers["vercel-cdn-cache-control"];
      const body = answer.body.length === 0 ? null : new Uint8Array(answer.body);
      return new Response(body, { status: answer.status, headers: answer.headers });
    };
    gateway = createGateway({
      ...common,
      mode: "fetch",
      origin: BASE,
      forward,
      secret: SECRET,
      limiter: memoryRateLimiter(),
      snapshotId: () => snapshots.current().manifest.snapshotId,
    });
  });

  async function both(sent: Sent): Promise<[Answer, Answer]> {
    const method = sent.method ?? "GET";
    const pairs = sent.headers ?? [];
    const record: Record<string, string | string[]> = {};
    for (const [name, value] of pairs) {
      const had = record[name];
      record[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    }
    const viaCore = fromCore(await local({ method, url: sent.path, headers: record }));
    const headers = new Headers();
    for (const [name, value] of pairs) headers.append(name, value);
    const viaGateway = await fromWeb(await gateway(new Request(`${BASE}${sent.path}`, { method, headers })));
    return [viaCore, viaGateway];
  }

  const key = (name: keyof typeof KEYS): [string, string] => ["authorization", auth(KEYS[name]).authorization!];

  test.each<[string, Sent, number]>([
    ["a stored page", { path: "/v1/films", headers: [key("valid")] }, 200],
    ["a stored page in gzip", { path: "/v1/films", headers: [key("valid"), ["accept-encoding", "gzip"]] }, 200],
    [
      "a composed page in br",
      { path: "/v1/showtimes?limit=7", headers: [key("valid"), ["accept-encoding", "br"]] },
      200,
    ],
    ["a HEAD", { method: "HEAD", path: "/v1/cinemas", headers: [key("valid")] }, 200],
    ["an encoded id", { path: "/v1/films/no%2Fsuch", headers: [key("valid")] }, 404],
    ["a bad parameter", { path: "/v1/showtimes?limit=101", headers: [key("valid")] }, 400],
    ["an unknown path", { path: "/v1/nope", headers: [key("valid")] }, 404],
    // The platform resolves %2e%2e, so the internal target is no API path: still one request id.
    ["dot segments past /v1", { path: "/v1/%2e%2e/%2e%2e/%2e%2e/healthz", headers: [key("valid")] }, 404],
    ["dot segments under /v1", { path: "/v1/%2e%2e/films", headers: [key("valid")] }, 404],
    ["a POST", { method: "POST", path: "/v1/films", headers: [key("valid")] }, 405],
    ["no key", { path: "/v1/films" }, 401],
    ["no Bearer word", { path: "/v1/films", headers: [["authorization", KEYS.valid]] }, 401],
    ["an unknown key", { path: "/v1/films", headers: [["authorization", "Bearer cl_nope"]] }, 401],
    ["a revoked key", { path: "/v1/films", headers: [key("revoked")] }, 401],
    ["two keys", { path: "/v1/films", headers: [key("valid"), key("valid2")] }, 401],
    ["a cancelled entitlement", { path: "/v1/films", headers: [key("cancelled")] }, 403],
    ["a free plan", { path: "/v1/films", headers: [key("free")] }, 403],
    ["an allowed origin", { path: "/v1/attributes", headers: [key("valid"), ["origin", APP]] }, 200],
    ["an allowed origin, refused", { path: "/v1/attributes", headers: [["origin", APP]] }, 401],
    ["another origin", { path: "/v1/attributes", headers: [key("valid"), ["origin", "https://evil.example"]] }, 200],
    [
      "a preflight",
      {
        method: "OPTIONS",
        path: "/v1/films",
        headers: [
          ["origin", APP],
          ["access-control-request-method", "GET"],
        ],
      },
      204,
    ],
    ["the internal prefix, with a key", { path: "/_c/0/v1/films", headers: [key("valid")] }, 404],
    // A fragment is no part of a request (decision: fragments): both drop it, as a URL parser does.
    ["a fragment after the query", { path: "/v1/films?limit=2#x", headers: [key("valid")] }, 200],
    ["a fragment after a path", { path: "/v1/films#x", headers: [key("valid")] }, 200],
    ["a fragment holding a bad query", { path: "/v1/films#?limit=101", headers: [key("valid")] }, 200],
    ["an empty fragment after an id", { path: "/v1/films/film#", headers: [key("valid")] }, 200],
    ["an encoded # in an id: part of it", { path: "/v1/films/film%23x", headers: [key("valid")] }, 404],
    // Its one market (decision: markets), forwarded as any API path: the same bytes for every key.
    ["the list of markets", { path: "/markets", headers: [key("valid"), ["accept-encoding", "br"]] }, 200],
    ["the list of markets, with a parameter", { path: "/markets?limit=1", headers: [key("valid")] }, 400],
    ["the list of markets, without a key", { path: "/markets" }, 401],
    ["the list of markets under a market", { path: "/gb/markets", headers: [key("valid")] }, 404],
  ])("%s: the same status, body and headers", async (_what, sent, status) => {
    const [viaCore, viaGateway] = await both(sent);
    expect(viaCore.status).toBe(status);
    const { requestId: coreId, ...core } = comparable(viaCore);
    const { requestId: gatewayId, ...deployed } = comparable(viaGateway);
    expect(deployed).toEqual(core);
    expect(gatewayId).toMatch(/^[0-9a-f-]{36}$/);
    expect(gatewayId).not.toBe(coreId);
  });

  test("the rate limit counts alike: 3 per minute, the fourth a 429 with Retry-After", async () => {
    for (let i = 1; i <= 4; i++) {
      const [viaCore, viaGateway] = await both({ path: "/v1/films", headers: [key("tiny")] });
      expect(viaCore.status).toBe(i <= 3 ? 200 : 429);
      const { requestId: _a, ...core } = comparable(viaCore);
      const { requestId: _b, ...deployed } = comparable(viaGateway);
      expect(deployed).toEqual(core);
    }
  });

  test("a 304 for the ETag, alike", async () => {
    const [first] = await both({ path: "/v1/films?limit=3", headers: [key("valid")] });
    const [viaCore, viaGateway] = await both({
      path: "/v1/films?limit=3",
      headers: [key("valid"), ["if-none-match", first.headers.etag!]],
    });
    expect(viaCore.status).toBe(304);
    expect(comparable(viaGateway).headers).toEqual(comparable(viaCore).headers);
  });

  test("the internal path is forwarded without the key, and its answers hold nothing that varies by caller", () => {
    expect(forwarded.length).toBeGreaterThan(10);
    for (const { url, headers } of forwarded) {
      expect(url).toMatch(/^\/_c\/[0-9a-f]{32}\/(identity|gzip|br)\/(v1|markets)/);
      // Only what the function reads (decision: what the CDN keeps): no key, no Origin, nothing else.
      const allowed = ["accept-encoding", "if-none-match", "x-request-id", "x-listings-gateway"];
      expect(Object.keys(headers).filter((name) => !allowed.includes(name))).toEqual([]);
      expect(headers["x-listings-gateway"]).toBe(SECRET);
    }
    for (const answer of internal) {
      for (const name of ["x-request-id", "ratelimit", "ratelimit-policy", "vary", "access-control-allow-origin"])
        expect(answer.headers[name], name).toBeUndefined();
      const cdn = answer.headers["vercel-cdn-cache-control"];
      expect(cdn).toBe(answer.status === 200 ? "max-age=31536000, immutable" : undefined);
      if (answer.status >= 400) expect(answer.headers["cache-control"]).toBe("no-store");
    }
    expect(internal.filter((a) => a.status === 200).length).toBeGreaterThan(5);
  });
});

describe("the gateway in rewrite mode", () => {
  const snapshotId = "ab".repeat(16);
  const make = (options: { snapshotId?: () => string } = {}) =>
    createGateway({
      mode: "rewrite",
      secret: SECRET,
      snapshotId: options.snapshotId ?? (() => snapshotId),
      access: staticAccess(readFileSync(fixture.accessFile, "utf8")),
      limiter: memoryRateLimiter(),
      now: () => TEST_NOW,
    });

  test("an admitted request: the internal URL with the query as sent, forwarded headers without the key", async () => {
    const response = await make()(
      new Request(`${BASE}/v1/showtimes?cinemaId=a%2Fb&limit=2`, {
        headers: { ...auth(KEYS.valid), "accept-encoding": "gzip", "if-none-match": '"x"' },
      }),
    );
    const h = Object.fromEntries(response.headers);
    expect(h["x-middleware-rewrite"]).toBe(`${BASE}/_c/${snapshotId}/gzip/v1/showtimes?cinemaId=a%2Fb&limit=2`);
    const overridden = h["x-middleware-override-headers"]!.split(",");
    expect(overridden).not.toContain("authorization");
    expect(overridden).toEqual(
      expect.arrayContaining(["accept-encoding", "if-none-match", "x-request-id", "x-listings-gateway"]),
    );
    expect(h["x-middleware-request-x-request-id"]).toBe(h["x-request-id"]);
    expect(h["x-middleware-request-accept-encoding"]).toBe("gzip");
    expect(h["x-middleware-request-x-listings-gateway"]).toBe(SECRET);
    expect(h).toMatchObject({ vary: "Authorization, Accept-Encoding", ratelimit: '"org";r=599;t=39' });
  });

  test("what could keep the answer out of the CDN is not forwarded: only what the function reads", async () => {
    const response = await make()(
      new Request(`${BASE}/v1/films`, {
        headers: {
          ...auth(KEYS.valid),
          pragma: "no-cache",
          range: "bytes=0-10",
          cookie: "_vercel_no_cache=1; other=2",
          "cache-control": "no-cache",
          "user-agent": "curl/8",
          "if-none-match": '"x"',
        },
      }),
    );
    const h = Object.fromEntries(response.headers);
    expect(h["x-middleware-override-headers"]!.split(",").sort()).toEqual([
      "if-none-match",
      "x-listings-gateway",
      "x-request-id",
    ]);
    for (const name of ["authorization", "pragma", "range", "cookie", "cache-control", "user-agent"])
      expect(h[`x-middleware-request-${name}`], name).toBeUndefined();
  });

  test.each<[string, Record<string, string>, string]>([
    ["without a header", {}, "x-middleware-rewrite"],
    ["with a key", auth(KEYS.valid), "x-middleware-rewrite"],
    ["with a wrong secret", { "x-listings-gateway": "guess" }, "x-middleware-rewrite"],
  ])("the internal prefix %s: a 404", async (_what, headers, absent) => {
    const response = await make()(new Request(`${BASE}/_c/${snapshotId}/v1/films`, { headers }));
    expect(response.status).toBe(404);
    expect(response.headers.has(absent)).toBe(false);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  test("the internal prefix with the secret (the gateway's own fetch) goes on", async () => {
    const response = await make()(
      new Request(`${BASE}/_c/${snapshotId}/v1/films`, { headers: { "x-listings-gateway": SECRET } }),
    );
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  test("a snapshot the gateway cannot read: 503 database_unavailable with Retry-After", async () => {
    const gateway = make({
      snapshotId: () => {
        throw new SnapshotError("manifest.json", "cannot be read");
      },
    });
    const response = await gateway(new Request(`${BASE}/v1/films`, { headers: auth(KEYS.valid) }));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("database_unavailable");
  });
});

describe("the function's internal path", () => {
  let fn: Handler;
  let snapshotId: string;
  beforeAll(() => {
    const snapshots = new SnapshotSource(fixture.snapshotDir);
    snapshotId = snapshots.current().manifest.snapshotId;
    fn = createHandler({
      snapshots,
      access: fileAccess(fixture.accessFile),
      now: () => TEST_NOW,
      gatewaySecret: SECRET,
    });
  });
  const send = async (url: string, headers: Record<string, string>) =>
    fromCore(await fn({ method: "GET", url, headers }));
  const gatewayHeaders = { "x-listings-gateway": SECRET, "x-request-id": "0b6f5bc4-1f8e-4a55-9d0e-2f4c1a3b5d6e" };

  test.each<[string, () => string, Record<string, string>, number]>([
    ["another snapshot's id: 503", () => `/_c/${"0".repeat(32)}/gzip/v1/films`, gatewayHeaders, 503],
    ["no coding: 404", () => `/_c/${snapshotId}/v1/films`, gatewayHeaders, 404],
    ["an unknown coding: 404", () => `/_c/${snapshotId}/deflate/v1/films`, gatewayHeaders, 404],
    [
      "no secret: 404",
      () => `/_c/${snapshotId}/gzip/v1/films`,
      { "x-request-id": gatewayHeaders["x-request-id"] },
      404,
    ],
    ["not the API under it: 404", () => `/_c/${snapshotId}/healthz`, gatewayHeaders, 404],
    ["no snapshot id: 404", () => "/_c/v1/films", gatewayHeaders, 404],
    ["the API: 200", () => `/_c/${snapshotId}/identity/v1/films`, gatewayHeaders, 200],
    [
      "the public path from the gateway (the platform kept the client's path): 200",
      () => "/v1/films",
      gatewayHeaders,
      200,
    ],
    [
      "the public path with a wrong secret: admitted as usual, so 401",
      () => "/v1/films",
      { "x-listings-gateway": "guess" },
      401,
    ],
  ])("%s", async (_what, url, headers, status) => {
    const answer = await send(url(), headers);
    expect(answer.status).toBe(status);
    if (status === 200) {
      expect(answer.headers["vercel-cdn-cache-control"]).toBe("max-age=31536000, immutable");
      expect(answer.headers["x-request-id"]).toBeUndefined();
    }
    // One id per request: an error the gateway's request gets names the id the gateway gave it.
    if (status >= 400 && headers[GATEWAY_TOKEN_HEADER] === SECRET) {
      expect(JSON.parse(answer.body.toString()).error.requestId).toBe(gatewayHeaders["x-request-id"]);
      expect(answer.headers["x-request-id"]).toBeUndefined();
    }
  });

  // Vercel's cache key has no Accept-Encoding (decision: codings behind the CDN): the URL alone decides.
  test.each<[string, string]>([
    ["identity", "gzip, br"],
    ["gzip", ""],
    ["br", "gzip"],
  ])("the coding the URL names (%s) whatever Accept-Encoding says (%j)", async (coding, acceptEncoding) => {
    const url = `/_c/${snapshotId}/${coding}/v1/films`;
    const named = await send(url, { ...gatewayHeaders, "accept-encoding": acceptEncoding });
    const plain = await send(url, gatewayHeaders);
    expect(named.status).toBe(200);
    expect(named.headers["content-encoding"]).toBe(coding === "identity" ? undefined : coding);
    expect(named.body.equals(plain.body)).toBe(true);
    expect(named.headers.etag).toBe(plain.headers.etag);
  });

  test("a forwarded request id that is not a UUID is not echoed", async () => {
    const answer = await send(`/_c/${snapshotId}/gzip/v1/films/nope`, {
      ...gatewayHeaders,
      "x-request-id": "<script>",
    });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body.toString()).error.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("the gateway's request lines (docs/operations.md, Logs)", () => {
  const snapshotId = "cd".repeat(16);
  function gatewayLogging(mode: "rewrite" | "fetch") {
    const lines: RequestLog[] = [];
    const gateway = createGateway({
      mode,
      origin: BASE,
      secret: SECRET,
      snapshotId: () => snapshotId,
      access: staticAccess(readFileSync(fixture.accessFile, "utf8")),
      limiter: memoryRateLimiter(),
      now: () => TEST_NOW,
      forward: async () => new Response("{}", { status: 200, headers: { "content-length": "2" } }),
      onLog: (entry) => lines.push(entry),
    });
    return { gateway, lines };
  }
  const get = (gateway: Gateway, path: string, headers: Record<string, string> = {}) =>
    gateway(new Request(`${BASE}${path}`, { headers }));

  test("a known key's refusal names its organization (429, 403, a revoked key's 401), an unknown none", async () => {
    const { gateway, lines } = gatewayLogging("rewrite");
    for (let i = 0; i < 4; i++) await get(gateway, "/v1/films", auth(KEYS.tiny));
    await get(gateway, "/v1/films", auth(KEYS.cancelled));
    await get(gateway, "/v1/films", auth("cl_nope"));
    await get(gateway, "/v1/films", auth(KEYS.revoked));
    await get(gateway, "/_c/x/v1/films");
    expect(lines.map((l) => [l.status, l.organization, l.forwarded, l.keyId, l.keyRefused])).toEqual([
      [undefined, "tiny-co", "rewrite", undefined, undefined],
      [undefined, "tiny-co", "rewrite", undefined, undefined],
      [undefined, "tiny-co", "rewrite", undefined, undefined],
      [429, "tiny-co", undefined, undefined, undefined],
      [403, "cancelled-co", undefined, undefined, undefined],
      [401, undefined, undefined, undefined, undefined],
      [401, "acme", undefined, "key-revoked", "revoked"],
      [404, undefined, undefined, undefined, undefined],
    ]);
    for (const line of lines) {
      expect(line.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(lines[3]).toMatchObject({ method: "GET", path: "/v1/films", bytes: expect.any(Number) });
  });

  test(
    "fetch mode: the answer's status and bytes; the gateway's own fetch arriving back is not a second " + "line",
    async () => {
      const { gateway, lines } = gatewayLogging("fetch");
      const response = await get(gateway, "/v1/films?limit=2", auth(KEYS.valid));
      await get(gateway, `/_c/${snapshotId}/gzip/v1/films`, { [GATEWAY_TOKEN_HEADER]: SECRET });
      expect(lines).toEqual([
        expect.objectContaining({
          requestId: response.headers.get("x-request-id"),
          organization: "acme",
          path: "/v1/films",
          status: 200,
          bytes: 2,
          forwarded: "fetch",
        }),
      ]);
    },
  );
});
