/**
 * The statuses that need a special server: 429 (a tiny rate limit and a movable clock), 500
 * (a reader that throws), 503 (no snapshot, a broken one), and the entitlement and key
 * expiry bounds at exact instants (the `now` option). In-process and over a socket.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { buildDataset, generateDataset } from "./helpers/dataset.js";
import {
  auth,
  describeMatrix,
  KEYS,
  TEST_NOW,
  useClient,
  useHttpFixture,
  type TestResponse,
} from "./helpers/http-setup.js";

const fixture = useHttpFixture({ seed: 7, showtimes: 40 });

function expectError(res: TestResponse, status: number, code: string): { message: string } {
  expect(res.status, res.body.toString()).toBe(status);
  expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(res.headers["cache-control"]).toBe("no-store");
  const { error } = res.json();
  expect(error.code).toBe(code);
  expect(error.requestId).toBe(res.headers["x-request-id"]);
  return error;
}

/** What a leaked internal would look like: the thrown message, a path, a stack frame. */
function expectNoInternals(res: TestResponse): void {
  const text = res.body.toString();
  for (const leak of ["EACCES", "/srv", "secret", "    at ", ".ts:", fixture.root]) expect(text).not.toContain(leak);
}

describeMatrix("429 rate_limited", (runtime) => {
  let clock = TEST_NOW;
  const api = useClient(runtime, () => ({
    snapshotDir: fixture.snapshotDir,
    accessFile: fixture.accessFile,
    now: () => clock,
  }));
  const get = (key: string, path = "/v1/cinemas", method = "GET") => api.request(path, { method, headers: auth(key) });

  test("counts per organization across its keys; past the limit: 429 with Retry-After and RateLimit", async () => {
    // tiny-co allows 3 per 60 s; TEST_NOW is 39 s before its window ends.
    const remaining = [];
    for (const key of [KEYS.tiny, KEYS.tiny2, KEYS.tiny]) {
      const res = await get(key);
      expect(res.status).toBe(200);
      expect(res.headers["ratelimit-policy"]).toBe('"org";q=3;w=60');
      remaining.push(res.headers.ratelimit);
    }
    expect(remaining).toEqual(['"org";r=2;t=39', '"org";r=1;t=39', '"org";r=0;t=39']);
    const limited = await get(KEYS.tiny2);
    expectError(limited, 429, "rate_limited");
    expect(limited.headers["retry-after"]).toBe("39");
    expect(limited.headers.ratelimit).toBe('"org";r=0;t=39');
    expect(limited.headers["ratelimit-policy"]).toBe('"org";q=3;w=60');
  });

  test("another organization keeps its own count (the default policy: 600 per 60 s)", async () => {
    const res = await get(KEYS.valid);
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-policy"]).toBe('"org";q=600;w=60');
    expect(res.headers.ratelimit).toBe('"org";r=599;t=39');
  });

  test.each([
    ["/v1/showtimes?limit=0", "GET", "429 before 400"],
    ["/v1/cinemas/no-such-cinema", "GET", "429 before 404 of an id"],
    ["/v1/nope", "GET", "429 before 404 of a path"],
    ["/v1/films", "POST", "429 before 405"],
  ])("once limited: %s %s is 429 (%s)", async (path, method) => {
    expectError(await get(KEYS.tiny, path, method), 429, "rate_limited");
  });

  test("429 before 403: an unentitled organization past its limit learns only that", async () => {
    expectError(await get(KEYS.tinyLapsed), 403, "entitlement_required");
    expectError(await get(KEYS.tinyLapsed), 429, "rate_limited");
  });

  test("Retry-After is honest: once the window turns, the organization is served again", async () => {
    clock = new Date(TEST_NOW.getTime() + 39_000);
    const res = await get(KEYS.tiny);
    expect(res.status).toBe(200);
    expect(res.headers.ratelimit).toBe('"org";r=2;t=60');
  });
});

const SECRET = "EACCES: permission denied, open '/srv/secret-snapshot/bodies/pack.bin'";

/** A snapshot source that fails the way a bug or a broken disk would: a plain Error carrying a path. */
class FailingSource extends SnapshotSource {
  override current(): never {
    throw new Error(SECRET);
  }
}

describeMatrix("500 internal_error", (runtime) => {
  const reported: Array<[string, unknown]> = [];
  const api = useClient(runtime, () => ({
    snapshotDir: fixture.snapshotDir,
    accessFile: fixture.accessFile,
    snapshots: new FailingSource(fixture.snapshotDir),
    onError: (requestId, error) => void reported.push([requestId, error]),
  }));

  test.each([
    ["/v1/cinemas", "a precomputed page"],
    ["/v1/showtimes?limit=7", "a composed page"],
    ["/v1/films/film-0", "a get-one"],
  ])("%s (%s): the envelope, no internals; the error is reported with the request id", async (path) => {
    const res = await api.request(path, { headers: auth(KEYS.valid) });
    const error = expectError(res, 500, "internal_error");
    expect(error.message).toMatch(/request id/);
    expectNoInternals(res);
    const [requestId, thrown] = reported.at(-1)!;
    expect(requestId).toBe(res.headers["x-request-id"]);
    expect((thrown as Error).message).toBe(SECRET);
  });
});

describeMatrix("503 database_unavailable", (runtime) => {
  const missingDir = () => path.join(fixture.root, `never-built-${runtime.name}`);
  const brokenDir = () => path.join(fixture.root, `broken-${runtime.name}`);
  const missing = useClient(runtime, () => ({ snapshotDir: missingDir(), accessFile: fixture.accessFile }));
  const broken = useClient(runtime, () => ({ snapshotDir: brokenDir(), accessFile: fixture.accessFile }));

  test.each([["/v1/cinemas"], ["/v1/showtimes?limit=7"], ["/v1/cinemas/cin-0"], ["/v1/films/film-0"]])(
    "no snapshot: %s is 503 with Retry-After, and names no path",
    async (path) => {
      const res = await missing.request(path, { headers: auth(KEYS.valid) });
      expectError(res, 503, "database_unavailable");
      expect(res.headers["retry-after"]).toBe("5");
      expectNoInternals(res);
      expect(res.body.toString()).not.toContain("never-built");
    },
  );

  test("no snapshot and no key: still 401 first", async () => {
    expectError(await missing.request("/v1/cinemas"), 401, "unauthorized");
  });

  test("a snapshot with a data file missing is no snapshot: every page is 503, never a crash", async () => {
    await buildDataset(
      generateDataset({ seed: 3, showtimes: 30 }),
      fixture.root,
      brokenDir(),
      `data-broken-${runtime.name}`,
    );
    rmSync(path.join(brokenDir(), "records.blocks"));
    expectError(
      await broken.request("/v1/showtimes?limit=7", { headers: auth(KEYS.valid) }),
      503,
      "database_unavailable",
    );
    // Not even the stored pages: half a snapshot is not served.
    expectError(await broken.request("/v1/showtimes", { headers: auth(KEYS.valid) }), 503, "database_unavailable");
  });

  test("once a snapshot is built where none was, the same server serves it without a restart", async () => {
    await buildDataset(
      generateDataset({ seed: 4, showtimes: 10 }),
      fixture.root,
      missingDir(),
      `data-late-${runtime.name}`,
    );
    expect((await missing.request("/v1/cinemas", { headers: auth(KEYS.valid) })).status).toBe(200);
  });
});

describeMatrix("entitlement and key bounds at exact instants", (runtime) => {
  test.each([
    ["at validFrom (inclusive)", KEYS.edge, "2026-06-15T10:00:00Z", 200],
    ["1 ms before validFrom", KEYS.edge, "2026-06-15T09:59:59.999Z", 403],
    ["1 ms before validUntil", KEYS.edge, "2026-06-15T13:59:59.999Z", 200],
    ["at validUntil (exclusive)", KEYS.edge, "2026-06-15T14:00:00Z", 403],
    ["1 ms before expiresAt", KEYS.expiring, "2026-06-15T13:00:00.249Z", 200],
    ["1 ms after expiresAt", KEYS.expiring, "2026-06-15T13:00:00.251Z", 401],
  ])("%s", async (_label, key, now, status) => {
    const client = await runtime.open({
      snapshotDir: fixture.snapshotDir,
      accessFile: fixture.accessFile,
      now: () => new Date(now),
    });
    try {
      expect((await client.request("/v1/films", { headers: auth(key) })).status).toBe(status);
    } finally {
      await client.close();
    }
  });
});

describe("the fixture", () => {
  test("has the ids the tests above name", () => {
    expect(fixture.dataset.cinemas.map((c) => c.id)).toContain("cin-0");
    expect(fixture.dataset.films.map((f) => f.id)).toContain("film-0");
  });
});
