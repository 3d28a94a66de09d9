/**
 * HTTP behaviour (decisions: HTTP, entity tags, order of checks), in-process and over a socket:
 * HEAD, 405 with Allow, X-Request-Id and Content-Type on every response, strong ETags and 304
 * (only after the key checks), gzip and brotli (decoded and compared byte for byte),
 * Cache-Control, and freshness (spec §2.6, decision: freshness).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import {
  expectedList,
  foldFreshness,
  servedCinema,
  snapshotFreshness,
  type Cinema,
  type Film,
} from "./helpers/dataset.js";
import { auth, describeMatrix, KEYS, useClient, useHttpFixture, type TestResponse } from "./helpers/http-setup.js";

const fixture = useHttpFixture();
const enc = encodeURIComponent;
const ETAG = /^"[A-Za-z0-9_-]{22}"$/;

/** Headers that legitimately differ between two otherwise identical requests. */
const VOLATILE = new Set(["x-request-id", "date", "ratelimit"]);
const stable = (res: TestResponse) =>
  Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VOLATILE.has(name)));

const PATHS: Array<[string, string]> = [
  ["/v1/showtimes", "a precomputed page"],
  ["/v1/showtimes?limit=50", "a composed page"],
  ["/v1/films/film%2F2049", "a get-one"],
];

describeMatrix("protocol", (runtime) => {
  const api = useClient(runtime, () => ({ snapshotDir: fixture.snapshotDir, accessFile: fixture.accessFile }));
  const get = (path: string, headers: Record<string, string> = {}, key: string = KEYS.valid) =>
    api.request(path, { headers: auth(key, headers) });

  describe("HEAD", () => {
    test.each([...PATHS, ["/v1/films/no-such-film", "a 404"], ["/v1/showtimes?limit=0", "a 400"]])(
      "%s (%s): GET's headers, no body",
      async (path) => {
        const full = await get(path);
        const head = await api.request(path, { method: "HEAD", headers: auth(KEYS.valid) });
        expect(head.status).toBe(full.status);
        expect(stable(head)).toEqual(stable(full));
        expect(head.headers["content-length"]).toBe(String(full.body.length));
        expect(head.body.length).toBe(0);
      },
    );
  });

  describe("405", () => {
    test.each([["POST"], ["PUT"], ["DELETE"], ["PATCH"], ["OPTIONS"]])(
      "%s is 405 with Allow and the envelope",
      async (method) => {
        for (const path of ["/v1/showtimes", "/v1/cinemas/cin-0", "/v1/nope"]) {
          const res = await api.request(path, { method, headers: auth(KEYS.valid) });
          expect(res.status, path).toBe(405);
          expect(res.headers.allow).toBe("GET, HEAD");
          expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
          expect(res.json().error).toMatchObject({ code: "bad_request", requestId: res.headers["x-request-id"] });
        }
      },
    );
  });

  describe("every response: Content-Type and X-Request-Id", () => {
    test("200, 304, 400, 401, 403, 404, 405: each typed, each with its own id", async () => {
      const tag = (await get("/v1/cinemas")).headers.etag!;
      const responses = await Promise.all([
        get("/v1/cinemas"),
        get("/v1/cinemas", { "if-none-match": tag }),
        get("/v1/cinemas?limit=0"),
        api.request("/v1/cinemas"),
        get("/v1/cinemas", {}, KEYS.cancelled),
        get("/v1/nope"),
        api.request("/v1/cinemas", { method: "POST", headers: auth(KEYS.valid) }),
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, 304, 400, 401, 403, 404, 405]);
      for (const res of responses) {
        expect(res.headers["content-type"], String(res.status)).toBe("application/json; charset=utf-8");
        expect(res.headers["x-request-id"], String(res.status)).toMatch(/^[0-9a-f-]{36}$/);
        if (res.status >= 400) expect(res.json().error.requestId).toBe(res.headers["x-request-id"]);
      }
      expect(new Set(responses.map((r) => r.headers["x-request-id"])).size).toBe(responses.length);
    });
  });

  describe("ETag and If-None-Match", () => {
    test.each(PATHS)("%s (%s): a strong, stable tag; a match is 304 with no body", async (path) => {
      const first = await get(path);
      expect(first.headers.etag).toMatch(ETAG);
      expect((await get(path)).headers.etag).toBe(first.headers.etag);
      const tag = first.headers.etag!;
      for (const condition of [tag, `W/${tag}`, `"other", ${tag}`, "*", tag.replace(/"$/, '-gzip"')]) {
        const res = await get(path, { "if-none-match": condition });
        expect(res.status, condition).toBe(304);
        expect(res.body.length).toBe(0);
        expect(res.headers.etag).toBe(tag);
        expect(res.headers["cache-control"]).toBe("private, max-age=60");
        // A 304 is an authenticated answer: it carries the organization's policy (acme: the default).
        expect(res.headers["ratelimit-policy"]).toBe('"org";q=600;w=60');
        expect(res.headers.ratelimit).toMatch(/^"org";r=\d+;t=39$/);
      }
      expect((await get(path, { "if-none-match": '"not-this-one"' })).status).toBe(200);
    });

    test("different content, different tags", async () => {
      const tags = await Promise.all(
        ["/v1/showtimes", "/v1/showtimes?limit=24", "/v1/cinemas", "/v1/films/film-0"].map(
          async (p) => (await get(p)).headers.etag,
        ),
      );
      expect(new Set(tags).size).toBe(tags.length);
    });

    test(
      "a matching If-None-Match never bypasses the key checks: 401 without a key, 403 without an " + "entitlement",
      async () => {
        const tag = (await get("/v1/cinemas")).headers.etag!;
        expect((await api.request("/v1/cinemas", { headers: { "if-none-match": tag } })).status).toBe(401);
        expect((await api.request("/v1/cinemas", { headers: { "if-none-match": "*" } })).status).toBe(401);
        expect((await get("/v1/cinemas", { "if-none-match": tag }, KEYS.cancelled)).status).toBe(403);
      },
    );
  });

  describe("content coding", () => {
    test.each(PATHS)("%s (%s): gzip and br decode to the identity bytes", async (path) => {
      const identity = await get(path);
      expect(identity.headers["content-encoding"]).toBeUndefined();
      expect(identity.headers.vary).toBe("Authorization, Accept-Encoding");
      // Private: a shared cache must never answer for the key check.
      expect(identity.headers["cache-control"]).toBe("private, max-age=60");
      const gzip = await get(path, { "accept-encoding": "gzip, deflate, br" });
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
      expect(gzip.headers.etag).toBe(identity.headers.etag!.replace(/"$/, '-gzip"'));
      const br = await get(path, { "accept-encoding": "br" });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
      expect(br.headers.etag).toBe(identity.headers.etag!.replace(/"$/, '-br"'));
    });

    test.each<[string, string | undefined, string]>([
      ["gzip;q=0, br", "br", "gzip refused"],
      ["*", "gzip", "anything goes: the stored gzip"],
      ["gzip;q=0", undefined, "only a refusal"],
      ["identity", undefined, "identity asked for"],
      ["deflate", undefined, "a coding the API does not offer"],
      ["GZIP", "gzip", "coding names are case-insensitive"],
    ])("Accept-Encoding: %s → %s (%s)", async (accept, coding) => {
      expect((await get("/v1/showtimes", { "accept-encoding": accept })).headers["content-encoding"]).toBe(coding);
    });

    test("a small composed body is not worth compressing: identity even when gzip is accepted", async () => {
      const res = await get("/v1/attributes?limit=1", { "accept-encoding": "gzip" });
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.headers.etag).toMatch(ETAG);
      expect(res.json().data).toHaveLength(1);
    });
  });

  describe("freshness", () => {
    test("a get-one carries its own record's values, as written", async () => {
      const records: Array<["cinemas" | "films", Cinema | Film]> = [
        ...fixture.dataset.cinemas.map((c) => ["cinemas", c] as ["cinemas", Cinema]),
        ...fixture.dataset.films.map((f) => ["films", f] as ["films", Film]),
      ];
      for (const [resource, record] of records) {
        const body = (await get(`/v1/${resource}/${enc(record.id)}`)).json();
        expect(body.data).toEqual(servedCinema(record));
        const { observedAt, sourceUpdatedAt } = record.provenance;
        expect(body.freshness, record.id).toEqual(sourceUpdatedAt ? { observedAt, sourceUpdatedAt } : { observedAt });
      }
    });

    test("a list page carries the earliest observedAt and latest sourceUpdatedAt of its records", async () => {
      const body = (await get("/v1/showtimes")).json();
      const expected = expectedList(fixture.dataset, "showtimes").slice(0, 25);
      expect(body.data).toEqual(expected);
      expect(body.freshness).toEqual(foldFreshness(expected));
    });

    test.each([
      ["/v1/attributes", "attributes carry no provenance"],
      ["/v1/attributes?limit=2", "a composed attributes page"],
      ["/v1/showtimes?cinemaId=no-such-cinema", "an empty page (precomputed path probe misses)"],
      ["/v1/showtimes?startsAfter=2099-01-01T00:00Z", "an empty page after every showtime"],
    ])("%s (%s): the snapshot's freshness", async (path) => {
      const body = (await get(path)).json();
      expect(body.freshness).toEqual(snapshotFreshness(fixture.dataset));
      expect(body.freshness).toEqual(
        JSON.parse(readFileSync(join(fixture.snapshotDir, "manifest.json"), "utf8")).freshness,
      );
    });
  });
});
