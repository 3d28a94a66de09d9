/**
 * Opt-in CORS (decision: CORS), in-process and over a socket: preflights from allowed origins are
 * 204 without a key, every response to an allowed origin carries Allow-Origin and the exposed
 * headers, and nothing changes for other origins, for clients without Origin, or when unset.
 */
import { describe, expect, test } from "vitest";
import { parseCorsOrigins } from "../api/_core/gate/cors.js";
import { auth, describeMatrix, KEYS, useClient, useHttpFixture } from "./helpers/http-setup.js";

const fixture = useHttpFixture();
const APP = "https://app.example.com";
const PREFLIGHT = {
  origin: APP,
  "access-control-request-method": "GET",
  "access-control-request-headers": "authorization",
};
const EXPOSED = "ETag, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After";
const corsHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith("access-control-")));

describe("CORS_ORIGINS", () => {
  test.each<[string, string | undefined, string[] | "*" | undefined]>([
    ["unset", undefined, undefined],
    ["blank", "  ", undefined],
    ["a star", "*", "*"],
    [
      "two origins, spaced, one with a trailing slash",
      `${APP}, http://localhost:5173/`,
      [APP, "http://localhost:5173"],
    ],
  ])("%s", (_what, value, expected) => {
    const parsed = parseCorsOrigins(value);
    expect(parsed instanceof Set ? [...parsed] : parsed).toEqual(expected);
  });

  test.each([
    "app.example.com",
    "https://app.example.com/path",
    "ftp://x.example",
    "https://a.example,",
    "*, https://a.example",
  ])("%s is refused, naming the entry", (value) => {
    expect(() => parseCorsOrigins(value)).toThrow(/CORS_ORIGINS: .* is not an origin/);
  });
});

describeMatrix("CORS", (runtime) => {
  const listed = useClient(runtime, () => ({
    snapshotDir: fixture.snapshotDir,
    accessFile: fixture.accessFile,
    corsOrigins: parseCorsOrigins(APP),
  }));
  const star = useClient(runtime, () => ({
    snapshotDir: fixture.snapshotDir,
    accessFile: fixture.accessFile,
    corsOrigins: "*" as const,
  }));
  const off = useClient(runtime, () => ({ snapshotDir: fixture.snapshotDir, accessFile: fixture.accessFile }));

  test("a preflight from an allowed origin: 204 without a key", async () => {
    const response = await listed.request("/v1/showtimes?limit=3", { method: "OPTIONS", headers: PREFLIGHT });
    expect(response.status).toBe(204);
    expect(response.body.length).toBe(0);
    expect(corsHeaders(response.headers)).toEqual({
      "access-control-allow-origin": APP,
      "access-control-allow-methods": "GET, HEAD",
      "access-control-allow-headers": "Authorization, If-None-Match",
      "access-control-max-age": "600",
    });
    expect(response.headers.vary).toBe("Origin");
    expect(response.headers["content-length"]).toBeUndefined();
  });

  test("a preflight for /mcp allows what a browser MCP client sends: a POST of JSON (decision: MCP)", async () => {
    const response = await listed.request("/mcp", {
      method: "OPTIONS",
      headers: {
        origin: APP,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, mcp-protocol-version",
      },
    });
    expect(response.status).toBe(204);
    expect(corsHeaders(response.headers)).toEqual({
      "access-control-allow-origin": APP,
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": "Authorization, Content-Type, Mcp-Protocol-Version",
      "access-control-max-age": "600",
    });
  });

  test("with *, the preflight and the responses allow any origin", async () => {
    const preflight = await star.request("/v1/films", {
      method: "OPTIONS",
      headers: { ...PREFLIGHT, origin: "https://other.example" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    const get = await star.request("/v1/films", { headers: auth(KEYS.valid, { origin: "https://other.example" }) });
    expect(get.headers["access-control-allow-origin"]).toBe("*");
  });

  test.each([
    ["a 200", "/v1/films", KEYS.valid, 200],
    ["a 401", "/v1/films", undefined, 401],
    ["a 404", "/v1/films/nope", KEYS.valid, 404],
    ["a 400", "/v1/films?limit=0", KEYS.valid, 400],
  ])(
    "%s to an allowed origin carries Allow-Origin, the exposed headers and Vary: Origin",
    async (_what, path, key, status) => {
      const response = await listed.request(path, { headers: key ? auth(key, { origin: APP }) : { origin: APP } });
      expect(response.status).toBe(status);
      expect(corsHeaders(response.headers)).toEqual({
        "access-control-allow-origin": APP,
        "access-control-expose-headers": EXPOSED,
      });
      expect(response.headers.vary?.split(", ")).toContain("Origin");
    },
  );

  test("a disallowed origin gets no CORS header, and its preflight is a request like any other (401)", async () => {
    const get = await listed.request("/v1/films", { headers: auth(KEYS.valid, { origin: "https://evil.example" }) });
    expect(corsHeaders(get.headers)).toEqual({});
    const preflight = await listed.request("/v1/films", {
      method: "OPTIONS",
      headers: { ...PREFLIGHT, origin: "https://evil.example" },
    });
    expect(preflight.status).toBe(401);
    expect(corsHeaders(preflight.headers)).toEqual({});
  });

  test("a client without Origin sees exactly what it saw with CORS off", async () => {
    const on = await listed.request("/v1/films?limit=2", { headers: auth(KEYS.valid) });
    const plain = await off.request("/v1/films?limit=2", { headers: auth(KEYS.valid) });
    const stable = (h: Record<string, string>) => ({ ...h, "x-request-id": "", ratelimit: "", date: "" });
    expect(stable(on.headers)).toEqual(stable(plain.headers));
    expect(on.body).toEqual(plain.body);
  });

  test("unset: no CORS header, a preflight is a 401", async () => {
    const preflight = await off.request("/v1/films", { method: "OPTIONS", headers: PREFLIGHT });
    expect(preflight.status).toBe(401);
    expect(corsHeaders(preflight.headers)).toEqual({});
    const get = await off.request("/v1/films", { headers: auth(KEYS.valid, { origin: APP }) });
    expect(corsHeaders(get.headers)).toEqual({});
  });
});
