/**
 * Statuses of spec §4.8 with their codes (spec §7), in-process and over a socket: 200, 400 (every
 * rule of decision: strict query parsing and decision: limit, each naming its parameter), 401, 403
 * and 404, and decision: order of checks (401 → 429 → 403 → 400 → 404). 429, 500 and 503 are in
 * http-failures.test.ts.
 */
import { describe, expect, test } from "vitest";
import { auth, describeMatrix, KEYS, useClient, useHttpFixture, type TestResponse } from "./helpers/http-setup.js";
import type { Showtime } from "./helpers/dataset.js";

const fixture = useHttpFixture();
const enc = encodeURIComponent;
const CINEMA = "gb/london/odeon";
const FILM = "film/2049";

/** Checks the error envelope (spec §7) and the headers every error carries. */
function expectError(
  res: TestResponse,
  status: number,
  code: string,
): { code: string; message: string; requestId: string; details?: Record<string, unknown> } {
  expect(res.status, res.body.toString()).toBe(status);
  expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(res.headers["cache-control"]).toBe("no-store");
  const { error } = res.json();
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.message.length).toBeLessThanOrEqual(300);
  expect(error.requestId).toBe(res.headers["x-request-id"]);
  return error;
}

/** A film with the most showtimes: its filtered list surely has a second page at limit 1. */
function busiestFilm(): string {
  const counts = new Map<string, number>();
  for (const s of fixture.dataset.showtimes) counts.set(s.filmId, (counts.get(s.filmId) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

const BAD_QUERIES: Array<[string, string, string]> = [
  ["/v1/showtimes?limit=0", "limit", "below the minimum of 1"],
  ["/v1/showtimes?limit=101", "limit", "above the maximum of 100"],
  ["/v1/cinemas?limit=-1", "limit", "negative"],
  ["/v1/films?limit=1.5", "limit", "not an integer"],
  ["/v1/attributes?limit=1e1", "limit", "exponent form, though it means 10"],
  ["/v1/showtimes?limit=", "limit", "empty value"],
  ["/v1/showtimes?limit", "limit", "no value at all"],
  ["/v1/showtimes?limit=10abc", "limit", "trailing junk"],
  ["/v1/showtimes?limit=0x10", "limit", "hex"],
  ["/v1/showtimes?limit=%EF%BC%91%EF%BC%90", "limit", "fullwidth digits are not ASCII digits"],
  ["/v1/showtimes?limit=%2B5", "limit", "a sign is not a digit"],
  ["/v1/showtimes?limit=%zz", "limit", "broken percent-encoding"],
  ["/v1/showtimes?limit=5&limit=6", "limit", "given twice"],
  ["/v1/showtimes?limit=5&limit=5", "limit", "given twice, even with the same value"],
  ["/v1/showtimes?sort=id", "sort", "unknown parameter"],
  ["/v1/showtimes?Limit=5", "Limit", "names are case-sensitive"],
  ["/v1/cinemas?cinemaId=x", "cinemaId", "a showtimes filter is unknown on cinemas"],
  ["/v1/attributes?startsAfter=2026-01-01T00:00Z", "startsAfter", "a showtimes filter is unknown on attributes"],
  ["/v1/showtimes?cinemaId=", "cinemaId", "empty filter"],
  ["/v1/showtimes?filmId=", "filmId", "empty filter"],
  [`/v1/showtimes?cinemaId=${"c".repeat(161)}`, "cinemaId", "161 characters, one past the id bound"],
  [`/v1/showtimes?filmId=${enc("🎞".repeat(161))}`, "filmId", "161 code points (322 UTF-16 units)"],
  ["/v1/showtimes?startsAfter=2023-02-29T10:00:00Z", "startsAfter", "2023 is not a leap year"],
  ["/v1/showtimes?startsAfter=2026-03-06T20:00:00", "startsAfter", "no zone"],
  ["/v1/showtimes?startsAfter=2026-03-06", "startsAfter", "a date, not a date-time"],
  ["/v1/showtimes?startsAfter=2026-03-06%2020:00:00Z", "startsAfter", "a space instead of T"],
  ["/v1/showtimes?startsAfter=2026-03-06t20:00:00z", "startsAfter", "lowercase t and z (spec: the letter T, Z)"],
  ["/v1/showtimes?startsAfter=2026-03-06T24:00:00Z", "startsAfter", "hour 24"],
  ["/v1/showtimes?startsAfter=2026-13-01T00:00Z", "startsAfter", "month 13"],
  ["/v1/showtimes?startsAfter=2026-03-06T20:00:60Z", "startsAfter", "second 60"],
  ["/v1/showtimes?startsAfter=2026-03-06T20Z", "startsAfter", "no minutes"],
  ["/v1/showtimes?startsAfter=2026-03-06T20:00:00%2B1:00", "startsAfter", "one-digit offset hour"],
  ["/v1/showtimes?startsAfter=2026-03-06T20:00:00+01:00", "startsAfter", "an unencoded + arrives as a space"],
  ["/v1/showtimes?startsAfter=1741291200", "startsAfter", "epoch seconds"],
  ["/v1/showtimes?cursor=abc", "cursor", "garbage"],
  ["/v1/showtimes?cursor=not%20a%20cursor", "cursor", "garbage with spaces"],
  ["/v1/showtimes?cursor=%FF", "cursor", "bytes that are not UTF-8"],
  [`/v1/showtimes?cursor=${"A".repeat(3000)}`, "cursor", "longer than any cursor the API issues"],
  ["/v1/showtimes?cursor=WzEsImJpbmRpbmciLCJ4Il0", "cursor", "a plausible payload without a valid MAC"],
  [`/v1/cinemas/${enc(CINEMA)}?limit=5`, "limit", "get-one takes no list parameters"],
  [`/v1/films/${enc(FILM)}?cursor=abc`, "cursor", "get-one takes no cursor"],
  [`/v1/films/${enc(FILM)}?fields=title`, "fields", "get-one takes no parameters at all"],
  [`/v1/cinemas/${"c".repeat(161)}`, "cinemaId", "a path id one past the 160-character bound"],
  ["/v1/films/%E0%A4%A", "filmId", "a path id with broken percent-encoding"],
];

const NO_KEY_CASES: Array<[string, Record<string, string>, string]> = [
  ["no Authorization header", {}, "the key is required"],
  [
    "Basic scheme",
    { authorization: `Basic ${Buffer.from(`user:${KEYS.valid}`).toString("base64")}` },
    "only Bearer is accepted",
  ],
  ["Token scheme", { authorization: `Token ${KEYS.valid}` }, "only Bearer is accepted"],
  ["scheme without a key", { authorization: "Bearer" }, "no credentials"],
  ["key without a scheme", { authorization: KEYS.valid }, "the scheme word is required"],
  ["two tokens", { authorization: `Bearer ${KEYS.valid} ${KEYS.valid}` }, "one token only"],
  ["unknown key", auth("cl_test_never_issued"), "no hash matches"],
  ["revoked key", auth(KEYS.revoked), "revoked: true"],
  ["expired key", auth(KEYS.expired), "past expiresAt"],
  ["key of a missing organization", auth(KEYS.orphan), "its organization is not in the access file"],
  [
    "key with its case changed",
    auth(KEYS.valid.toUpperCase()),
    "the key is case-sensitive (only the scheme word is not)",
  ],
  ["key with a character dropped", auth(KEYS.valid.slice(0, -1)), "a prefix is not the key"],
];

describeMatrix("statuses", (runtime) => {
  const api = useClient(runtime, () => ({ snapshotDir: fixture.snapshotDir, accessFile: fixture.accessFile }));
  const get = (path: string, key: string = KEYS.valid) => api.request(path, { headers: auth(key) });

  describe("200", () => {
    test.each([
      ["/v1/showtimes", "list"],
      ["/v1/cinemas", "list"],
      ["/v1/films", "list"],
      ["/v1/attributes", "list"],
      [`/v1/showtimes?cinemaId=${enc(CINEMA)}&filmId=${enc(FILM)}&startsAfter=2026-01-01T00:00Z&limit=100`, "list"],
      [`/v1/cinemas/${enc(CINEMA)}`, "one"],
      [`/v1/films/${enc(FILM)}`, "one"],
    ])("GET %s", async (path, kind) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      const body = res.json();
      expect(body.freshness.observedAt).toEqual(expect.any(String));
      if (kind === "one") {
        expect(Object.keys(body)).toEqual(["data", "freshness"]);
        expect(body.data.id).toBe(decodeURIComponent(path.split("/")[3]!));
      } else {
        expect(Object.keys(body)).toEqual(["data", "pagination", "freshness"]);
        expect(Array.isArray(body.data)).toBe(true);
        expect(body.pagination.hasMore).toBe(body.pagination.nextCursor !== null);
      }
    });

    test("the scheme word is case-insensitive (RFC 9110): bearer, BEARER, bEaReR", async () => {
      for (const scheme of ["bearer", "BEARER", "bEaReR"]) {
        const res = await api.request("/v1/cinemas", { headers: { authorization: `${scheme} ${KEYS.valid}` } });
        expect(res.status, scheme).toBe(200);
      }
    });

    test("an organization with one lapsed and one active entitlement is entitled", async () => {
      expect((await get("/v1/films", KEYS.mixed)).status).toBe(200);
    });

    test("a cursor may be reused with another limit (decision: pagination)", async () => {
      const first = (await get("/v1/showtimes?limit=3")).json();
      const next = await get(`/v1/showtimes?limit=7&cursor=${first.pagination.nextCursor}`);
      expect(next.status).toBe(200);
      expect(next.json().data).toHaveLength(7);
    });
  });

  describe("400 bad_request names the parameter", () => {
    test.each(BAD_QUERIES)("%s → %s (%s)", async (path, parameter) => {
      const error = expectError(await get(path), 400, "bad_request");
      expect(error.message).toContain(parameter);
      expect(error.details).toEqual({ parameter });
    });

    test("a tampered cursor", async () => {
      const cursor: string = (await get("/v1/showtimes?limit=2")).json().pagination.nextCursor;
      const at = Math.floor(cursor.length / 2);
      const tampered = cursor.slice(0, at) + (cursor[at] === "A" ? "B" : "A") + cursor.slice(at + 1);
      expect(expectError(await get(`/v1/showtimes?limit=2&cursor=${tampered}`), 400, "bad_request").details).toEqual({
        parameter: "cursor",
      });
    });

    test("a cursor reused with other filters or on another endpoint", async () => {
      const film = busiestFilm();
      const cursor: string = (await get(`/v1/showtimes?filmId=${enc(film)}&limit=1`)).json().pagination.nextCursor;
      const other = fixture.dataset.films.find((f) => f.id !== film)!.id;
      const misuses = [
        `/v1/showtimes?cursor=${cursor}`, // the filter dropped
        `/v1/showtimes?filmId=${enc(other)}&cursor=${cursor}`, // another film
        `/v1/showtimes?filmId=${enc(film)}&cinemaId=${enc(CINEMA)}&cursor=${cursor}`, // a filter added
        `/v1/showtimes?filmId=${enc(film)}&startsAfter=2026-01-01T00:00Z&cursor=${cursor}`, // startsAfter added
        `/v1/films?cursor=${cursor}`, // another endpoint
      ];
      for (const path of misuses)
        expect(expectError(await get(path), 400, "bad_request").details, path).toEqual({ parameter: "cursor" });
      const cinemasCursor: string = (await get("/v1/cinemas?limit=1")).json().pagination.nextCursor;
      // Same key shape ([id]) on both endpoints: only the binding tells them apart.
      expect(expectError(await get(`/v1/films?cursor=${cinemasCursor}`), 400, "bad_request").details).toEqual({
        parameter: "cursor",
      });
      const withStart: string = (await get("/v1/showtimes?startsAfter=2026-01-01T00:00Z&limit=1")).json().pagination
        .nextCursor;
      expect((await get(`/v1/showtimes?startsAfter=2026-01-01T00:00Z&cursor=${withStart}`)).status).toBe(200);
      expect(
        expectError(await get(`/v1/showtimes?startsAfter=2026-02-01T00:00Z&cursor=${withStart}`), 400, "bad_request")
          .details,
        "another startsAfter",
      ).toEqual({ parameter: "cursor" });
    });
  });

  describe("401 unauthorized", () => {
    test.each(NO_KEY_CASES)("%s (%s)", async (_name, headers) => {
      const res = await api.request("/v1/showtimes", { headers });
      expectError(res, 401, "unauthorized");
      expect(res.headers["www-authenticate"]).toMatch(/^Bearer realm=/);
      expect(res.headers.ratelimit, "no organization, so no rate-limit state").toBeUndefined();
    });
  });

  describe("403 entitlement_required", () => {
    test.each([
      ["cancelled", "the only entitlement is cancelled", KEYS.cancelled],
      ["future", "validFrom is in the future", KEYS.future],
      ["past", "validUntil is in the past", KEYS.past],
      ["free", "an active plan that is not paid", KEYS.free],
    ])("%s key (%s)", async (_name, _reason, key) => {
      const res = await get("/v1/cinemas", key);
      expectError(res, 403, "entitlement_required");
      expect(res.headers["ratelimit-policy"], "authenticated: rate-limit headers present").toBe('"org";q=600;w=60');
    });
  });

  describe("404 not_found", () => {
    test.each([
      ["/v1/cinemas/no-such-cinema", "unknown cinema id"],
      ["/v1/films/no-such-film", "unknown film id"],
      [`/v1/cinemas/${enc(FILM)}`, "a film's id on the cinemas endpoint"],
      [`/v1/cinemas/${enc(CINEMA.toUpperCase())}`, "ids are case-sensitive"],
      [`/v1/cinemas/${CINEMA}`, "unencoded slashes make another path"],
      ["/v1/nope", "unknown resource"],
      ["/v1/showtimes/x", "showtimes have no get-one"],
      ["/v1/attributes/format-2d", "attributes have no get-one"],
      ["/v2/films", "unknown version"],
      ["/V1/films", "the prefix is case-sensitive"],
      ["/v1", "the prefix alone"],
      ["/v1/", "the prefix with a slash"],
      ["/v1/cinemas/", "an empty id"],
      ["/v1/films/x/y", "too many segments"],
    ])("%s (%s)", async (path) => {
      expectError(await get(path), 404, "not_found");
    });
  });

  describe("order of checks: 401 → 429 → 403 → 400 → 404", () => {
    test.each([
      ["/v1/cinemas/no-such-cinema", "GET", "an unknown id is 401, not 404: no key learns nothing"],
      ["/v1/nope", "GET", "an unknown path"],
      ["/v1/showtimes?limit=0", "GET", "a bad query"],
      ["/v1/films", "POST", "a wrong method"],
    ])("without a key: %s %s is 401 (%s)", async (path, method) => {
      expectError(await api.request(path, { method }), 401, "unauthorized");
    });

    test.each([
      ["/v1/showtimes?limit=0", "GET", "403 before 400"],
      ["/v1/cinemas/no-such-cinema", "GET", "403 before 404 of an id"],
      ["/v1/nope", "GET", "403 before 404 of a path"],
      ["/v1/films", "DELETE", "403 before 405"],
    ])("without an entitlement: %s %s is 403 (%s)", async (path, method) => {
      expectError(await api.request(path, { method, headers: auth(KEYS.cancelled) }), 403, "entitlement_required");
    });

    test("400 before 404: a bad query on an unknown id", async () => {
      expectError(await get("/v1/cinemas/no-such-cinema?limit=5"), 400, "bad_request");
    });

    test("an unknown filter value is not a 404: 200 with an empty page", async () => {
      const res = await get("/v1/showtimes?cinemaId=no-such-cinema&filmId=no-such-film");
      expect(res.status).toBe(200);
      expect(res.json().data).toEqual([]);
      expect(res.json().pagination).toEqual({ nextCursor: null, hasMore: false });
    });

    test("the fixture has the tricky records these tests name", () => {
      expect(fixture.dataset.cinemas.some((c) => c.id === CINEMA)).toBe(true);
      expect(fixture.dataset.showtimes.some((s: Showtime) => s.filmId === busiestFilm())).toBe(true);
    });
  });
});
