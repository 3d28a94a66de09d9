/**
 * Every route of the route table (api/_core/endpoints/routes.ts), walked as a table: each id of a
 * path that names no record is that record's 404, as the OpenAPI document promises for exactly
 * those operations (spec §4.4, §4.6); a path's ids scope what it answers, so two records' answers
 * never share an entity tag, and a scoped list never answers with the plain list's stored page.
 * A new endpoint is walked here without a change to this file.
 */
import { describe, expect, test } from "vitest";
import { ROUTES, templateOf, type Route } from "../api/_core/endpoints/routes.js";
import { createOpenApiDocument } from "../build/openapi/openapi.js";
import { auth, coreRuntime, KEYS, useClient, useHttpFixture } from "./helpers/http-setup.js";

const fixture = useHttpFixture();
const client = useClient(coreRuntime, () => fixture);

/** Two records' ids a path id can name, from the built dataset. */
function knownIds(resource: Route["ids"][number]["names"]): [string, string] {
  const records = fixture.dataset[resource] as Array<{ id: string }>;
  return [records[0]!.id, records[1]!.id];
}

/** The route's path with these ids in it, each percent-encoded. */
function pathWith(route: Route, ids: readonly string[]): string {
  let next = 0;
  const segments = route.path.map((s) => (typeof s === "string" ? s : encodeURIComponent(ids[next++]!)));
  return `/${segments.join("/")}`;
}

const get = (url: string) => client.request(url, { headers: auth(KEYS.bulk) });
const scoped = ROUTES.filter((route) => route.ids.length > 0);
const operations = Object.entries((createOpenApiDocument() as any).paths as Record<string, any>);

describe("a route with ids in its path", () => {
  test.each(scoped.flatMap((route) => route.ids.map((id, i) => [route.operationId, id.parameter, route, i] as const)))(
    "%s: a %s that names no record is a 404 naming it, after the others are found",
    async (_, __, route, position) => {
      const ids = route.ids.map((id) => knownIds(id.names)[0]);
      expect((await get(pathWith(route, ids))).status).toBe(200);
      ids[position] = "no-such-record";
      const response = await get(pathWith(route, ids));
      expect(response.status).toBe(404);
      expect(response.json().error).toMatchObject({ code: "not_found", message: expect.stringContaining("no-such") });
    },
  );

  test.each(scoped.map((route) => [route.operationId, route] as const))(
    "%s: two records' answers have entity tags of their own",
    async (_, route) => {
      const [first, second] = [0, 1].map((n) => route.ids.map((id) => knownIds(id.names)[n]!));
      const tags = await Promise.all([first!, second!].map(async (ids) => (await get(pathWith(route, ids))).headers));
      expect(tags[0]!.etag).toBeTruthy();
      expect(tags[0]!.etag).not.toBe(tags[1]!.etag);
      // Nor the tag of the list of every record of its kind, when the route lists records.
      const plain = ROUTES.find((r) => r.ids.length === 0 && r.path.at(-1) === route.path.at(-1));
      if (plain) expect(tags[0]!.etag).not.toBe((await get(pathWith(plain, []))).headers.etag);
    },
  );
});

describe("the OpenAPI document's 404s", () => {
  test.each(operations.map(([template, item]) => [template, item] as const))(
    "%s documents a 404 exactly when its path names a record",
    (template, item) => {
      const route = ROUTES.find((r) => templateOf(r) === template)!;
      expect(Object.keys(item.get.responses).includes("404")).toBe(route.ids.length > 0);
    },
  );
});
