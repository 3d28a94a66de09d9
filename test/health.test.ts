/**
 * GET /healthz (decision: health check): no key, never rate-limited, 200 with the snapshot in
 * service, 503 when there is none; the headers every response carries.
 */
import path from "node:path";
import { expect, test } from "vitest";
import { describeMatrix, KEYS, useClient, useHttpFixture } from "./helpers/http-setup.js";

const fixture = useHttpFixture();

describeMatrix("health check", (runtime) => {
  const api = useClient(runtime, () => ({ snapshotDir: fixture.snapshotDir, accessFile: fixture.accessFile }));
  const missing = useClient(runtime, () => ({
    snapshotDir: path.join(fixture.root, "no-snapshot"),
    accessFile: fixture.accessFile,
  }));

  test("without a key: 200 with the snapshot id and when it was built", async () => {
    const response = await api.request("/healthz");
    expect(response.status).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(["status", "snapshotId", "builtAt"]);
    expect(body.status).toBe("ok");
    expect(body.snapshotId).toMatch(/^[0-9a-f]{32}$/);
    expect(Number.isNaN(Date.parse(body.builtAt))).toBe(false);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers.ratelimit).toBeUndefined();
  });

  test("never rate-limited: an organization with 3 requests a minute, five health checks", async () => {
    for (let i = 0; i < 5; i++)
      expect((await api.request("/healthz", { headers: { authorization: `Bearer ${KEYS.tiny}` } })).status).toBe(200);
  });

  test("HEAD: the headers, no body; a query is ignored; POST is a 405", async () => {
    const head = await api.request("/healthz", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await api.request("/healthz?verbose=1")).status).toBe(200);
    const post = await api.request("/healthz", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  test("a path that only starts like it is the paid API's 401", async () => {
    expect((await api.request("/healthzz")).status).toBe(401);
    expect((await api.request("/health")).status).toBe(401);
  });

  test("no readable snapshot: 503 database_unavailable with Retry-After", async () => {
    const response = await missing.request("/healthz");
    expect(response.status).toBe(503);
    expect(response.json().error.code).toBe("database_unavailable");
    expect(response.headers["retry-after"]).toBe("5");
  });
});
