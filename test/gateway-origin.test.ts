/**
 * Where fetch mode sends the internal request (decision: gateway origin): to a fixed origin,
 * GATEWAY_ORIGIN or else https://VERCEL_URL, never to the host a request names. Node's launcher
 * builds the middleware's request URL from X-Forwarded-Host, Host or an absolute-form target, all
 * of them a client's to choose; the listener they name, a real socket, must get nothing, while the
 * fixed origin gets the request and the secret. Without a fixed origin, fetch mode forwards nothing.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { deployedGateway } from "../api/_adapters/deployed-gateway.js";
import { createGateway, type Forward } from "../api/_adapters/gateway.js";
import { resolveGatewayOrigin } from "../api/_adapters/gateway-origin.js";
import { staticAccess } from "../api/_core/gate/access.js";
import { GATEWAY_TOKEN_HEADER } from "../api/_core/gate/internal-path.js";
import { memoryRateLimiter } from "../api/_core/gate/rate-limit.js";
import { type Bystander, startBystander } from "../scripts/vercel/origin-check.js";
import { auth, KEYS, TEST_NOW, useHttpFixture } from "./helpers/http-setup.js";

const fixture = useHttpFixture();
const SECRET = "a-gateway-secret-of-forty-characters-000";
const SNAPSHOT_ID = "ef".repeat(16);

describe("resolveGatewayOrigin", () => {
  test.each<[string, NodeJS.ProcessEnv, string]>([
    ["GATEWAY_ORIGIN, https", { GATEWAY_ORIGIN: "https://api.example.com" }, "https://api.example.com"],
    [
      "GATEWAY_ORIGIN with its trailing slash",
      { GATEWAY_ORIGIN: "https://api.example.com/" },
      "https://api.example.com",
    ],
    ["GATEWAY_ORIGIN, http with a port", { GATEWAY_ORIGIN: "http://127.0.0.1:8080" }, "http://127.0.0.1:8080"],
    [
      "GATEWAY_ORIGIN over VERCEL_URL",
      { GATEWAY_ORIGIN: "https://api.example.com", VERCEL_URL: "cinema-abc123.vercel.app" },
      "https://api.example.com",
    ],
    [
      "VERCEL_URL, the deployment's host: https",
      { VERCEL_URL: "cinema-abc123.vercel.app" },
      "https://cinema-abc123.vercel.app",
    ],
    [
      "an empty GATEWAY_ORIGIN counts as unset",
      { GATEWAY_ORIGIN: "", VERCEL_URL: "cinema-abc123.vercel.app" },
      "https://cinema-abc123.vercel.app",
    ],
  ])("%s", (_what, env, origin) => {
    expect(resolveGatewayOrigin(env)).toEqual({ origin });
  });

  test.each<[string, NodeJS.ProcessEnv, RegExp]>([
    ["neither", {}, /GATEWAY_ORIGIN and VERCEL_URL are unset/],
    ["both empty", { GATEWAY_ORIGIN: " ", VERCEL_URL: "" }, /GATEWAY_ORIGIN and VERCEL_URL are unset/],
    [
      "GATEWAY_ORIGIN with a path",
      { GATEWAY_ORIGIN: "https://api.example.com/v1" },
      /GATEWAY_ORIGIN "https:\/\/api\.example\.com\/v1"/,
    ],
    ["GATEWAY_ORIGIN with a query", { GATEWAY_ORIGIN: "https://api.example.com?x=1" }, /GATEWAY_ORIGIN/],
    ["GATEWAY_ORIGIN with an empty query", { GATEWAY_ORIGIN: "https://api.example.com/?" }, /GATEWAY_ORIGIN/],
    ["GATEWAY_ORIGIN with a fragment", { GATEWAY_ORIGIN: "https://api.example.com#top" }, /GATEWAY_ORIGIN/],
    ["GATEWAY_ORIGIN with credentials", { GATEWAY_ORIGIN: "https://user:pw@api.example.com" }, /GATEWAY_ORIGIN/],
    ["GATEWAY_ORIGIN of another scheme", { GATEWAY_ORIGIN: "ftp://api.example.com" }, /GATEWAY_ORIGIN/],
    ["GATEWAY_ORIGIN without a scheme", { GATEWAY_ORIGIN: "api.example.com" }, /GATEWAY_ORIGIN/],
    ["GATEWAY_ORIGIN not a URL", { GATEWAY_ORIGIN: "https://" }, /GATEWAY_ORIGIN/],
    ["VERCEL_URL with a scheme", { VERCEL_URL: "https://cinema-abc123.vercel.app" }, /VERCEL_URL/],
    ["VERCEL_URL with a path", { VERCEL_URL: "cinema-abc123.vercel.app/v1" }, /VERCEL_URL/],
    ["VERCEL_URL with credentials", { VERCEL_URL: "user@cinema-abc123.vercel.app" }, /VERCEL_URL/],
  ])("%s: no origin, and a problem naming the fix", (_what, env, reason) => {
    const resolved = resolveGatewayOrigin(env);
    expect(resolved.origin).toBeUndefined();
    expect(resolved.problem).toMatch(reason);
    expect(resolved.problem).toMatch(/set GATEWAY_ORIGIN to the deployment's own origin .*GATEWAY_MODE=rewrite/);
  });
});

/** A stand-in for the deployment's own origin: records what reaches it, answers an empty 200. */
let deployment: Server;
let deploymentOrigin: string;
const reached: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
let bystander: Bystander;

beforeAll(async () => {
  deployment = createServer((req, res) => {
    reached.push({ url: req.url ?? "", headers: req.headers });
    res.writeHead(200, { "content-type": "application/json", "content-length": "2" }).end("{}");
  });
  await new Promise<void>((resolve) => deployment.listen(0, "127.0.0.1", resolve));
  deploymentOrigin = `http://127.0.0.1:${(deployment.address() as AddressInfo).port}`;
  bystander = await startBystander();
});
afterEach(() => {
  reached.length = 0;
});
afterAll(async () => {
  await bystander.close();
  await new Promise((resolve) => deployment.close(resolve));
});

/** The URL Vercel's Node launcher gives the middleware (@vercel/node, bundling-handler.js). */
function launcherUrl(target: string, headers: { host: string; "x-forwarded-host"?: string }): string {
  return new URL(target, `http://${headers["x-forwarded-host"] ?? headers.host}`).href;
}

/** Each way a client can make the request's URL name the bystander. */
const NAMINGS: Array<[string, (authority: string) => string]> = [
  ["Host", (authority) => launcherUrl("/v1/films?limit=2", { host: authority })],
  [
    "X-Forwarded-Host",
    (authority) => launcherUrl("/v1/films?limit=2", { host: "api.example", "x-forwarded-host": authority }),
  ],
  [
    "an absolute-form target",
    (authority) => launcherUrl(`http://${authority}/v1/films?limit=2`, { host: "api.example" }),
  ],
  [
    "a target that begins with //",
    (authority) => launcherUrl(`//${authority}/v1/films?limit=2`, { host: "api.example" }),
  ],
];

const accessText = () => readFileSync(fixture.accessFile, "utf8");

describe("fetch mode with a fixed origin, over real sockets", () => {
  test.each(NAMINGS)("a request whose %s names another listener: forwarded to the origin only", async (_how, urlOf) => {
    const gateway = createGateway({
      mode: "fetch",
      origin: deploymentOrigin,
      secret: SECRET,
      snapshotId: () => SNAPSHOT_ID,
      access: staticAccess(accessText()),
      limiter: memoryRateLimiter(),
      now: () => TEST_NOW,
    });
    const url = urlOf(bystander.authority);
    expect(new URL(url).host).toBe(bystander.authority);
    const response = await gateway(new Request(url, { headers: auth(KEYS.valid) }));
    expect(response.status).toBe(200);
    expect(bystander.connections()).toBe(0);
    expect(reached).toEqual([
      {
        url: `/_c/${SNAPSHOT_ID}/identity/v1/films?limit=2`,
        headers: expect.objectContaining({ host: new URL(deploymentOrigin).host, [GATEWAY_TOKEN_HEADER]: SECRET }),
      },
    ]);
  });
});

describe("fetch mode without a fixed origin", () => {
  test.each<[string, string | undefined, string]>([
    ["the problem given", "no fixed origin: because; fix it", "no fixed origin: because; fix it"],
    ["none given", undefined, "no fixed origin for the gateway's fetch mode"],
  ])("a 503 database_unavailable, the reason in the log (%s), nothing forwarded", async (_what, problem, logged) => {
    const forwarded: string[] = [];
    const errors: unknown[] = [];
    const forward: Forward = async (url) => {
      forwarded.push(url.href);
      return new Response("{}");
    };
    const gateway = createGateway({
      mode: "fetch",
      originProblem: problem,
      forward,
      secret: SECRET,
      snapshotId: () => SNAPSHOT_ID,
      access: staticAccess(accessText()),
      limiter: memoryRateLimiter(),
      now: () => TEST_NOW,
      onError: (_requestId, error) => errors.push(error),
    });
    const response = await gateway(new Request("https://api.example/v1/films", { headers: auth(KEYS.valid) }));
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("database_unavailable");
    expect(forwarded).toEqual([]);
    expect(errors.map((error) => (error as Error).message)).toEqual([logged]);
  });
});

describe("the deployed gateway reads its origin from the environment", () => {
  const files = () => ({
    manifest: pathToFileURL(path.join(fixture.snapshotDir, "manifest.json")),
    secret: pathToFileURL(path.join(fixture.snapshotDir, "no-secret-here")),
  });
  const gatewayOf = (env: NodeJS.ProcessEnv) =>
    deployedGateway({ ACCESS_JSON: accessText(), GATEWAY_SECRET: SECRET, LOG_LEVEL: "silent", ...env }, files());
  const namingBystander = () =>
    new Request(`http://${bystander.authority}/v1/films`, {
      headers: { ...auth(KEYS.valid), "x-forwarded-host": bystander.authority },
    });

  test("fetch mode, GATEWAY_ORIGIN: the origin gets the request, the named host nothing", async () => {
    const response = await gatewayOf({ GATEWAY_MODE: "fetch", GATEWAY_ORIGIN: deploymentOrigin })(namingBystander());
    expect(response.status).toBe(200);
    expect(reached.map((r) => r.headers[GATEWAY_TOKEN_HEADER])).toEqual([SECRET]);
    expect(bystander.connections()).toBe(0);
  });

  test.each<[string, NodeJS.ProcessEnv]>([
    ["no GATEWAY_ORIGIN and no VERCEL_URL", {}],
    ["a GATEWAY_ORIGIN with a path", { GATEWAY_ORIGIN: `${deploymentOrigin}/v1` }],
  ])("fetch mode, %s: a 503, nothing forwarded", async (_what, env) => {
    const response = await gatewayOf({ GATEWAY_MODE: "fetch", ...env })(namingBystander());
    expect(response.status).toBe(503);
    expect(reached).toEqual([]);
    expect(bystander.connections()).toBe(0);
  });
});
