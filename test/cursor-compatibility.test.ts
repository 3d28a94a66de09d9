/**
 * Cursors keep paging across releases (decision: pagination). Pinned cursors issued by the server
 * of 2026-11-24 over a fixed dataset, for every filter alone and a few combinations, and those of
 * parameters and endpoints added since (`/v1/places`), resume with the same records; a parameter
 * added to a table changes no binding of a request without it; and every filter binds.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { staticAccess } from "../api/_core/gate/access.js";
import { bindingOf, decodeCursor, encodeCursorEscaped } from "../api/_core/tokens/cursor.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler } from "../api/_core/handle-request.js";
import type { ListResource } from "../api/_core/format/layout/manifest.js";
import { boundFieldsOf, isFilter, type ParameterTable } from "../api/_core/endpoints/parameters/parameter.js";
import { PLACE_PARAMETERS } from "../api/_core/endpoints/parameters/places.js";
import {
  LIST_TABLES,
  parseListRequest,
  parseListRequestWith,
  parseTableQuery,
} from "../api/_core/endpoints/parse-request.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { NEWCOMER } from "./helpers/newcomer-parameter.js";
import { encodeValue, sampleOf, sampleQuery, withRequired } from "./helpers/parameter-samples.js";

interface Pinned {
  url: string;
  cursor: string;
  lastId: string;
  next: string[];
}

const FIXTURE = path.join(ROOT, "test/fixtures/demo-2026-11");
const FIXED = JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/pinned-cursors.json"), "utf8"));
/** The cursors of 2026-11-24's server, and those of parameters added since, pinned when first served. */
const PINNED: Pinned[] = [...FIXED.cursors, ...FIXED.addedLater];
const DEMO_KEY = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";

let work: string;
let handle: ReturnType<typeof createHandler>;

beforeAll(async () => {
  work = makeTempDir("cursor-compat-");
  const result = await runBuild({ dataDir: FIXTURE, output: createDiskWriter(work), gzipWorkers: 0 });
  expect(result.ok).toBe(true);
  const access = staticAccess(readFileSync(path.join(ROOT, "data/demo-access.json"), "utf8"), "demo");
  handle = createHandler({ snapshots: new SnapshotSource(work), access, now: () => new Date("2026-11-24T12:00:00Z") });
});

afterAll(() => removeDir(work));

type Record = {
  id?: string;
  name?: string;
  countryCode?: string;
  kind?: string;
  latitude?: number;
  longitude?: number;
};

/** A record as pinned: its id; a place, which has none, by its name, country, kind and coordinates. */
const idOf = (r: Record) => r.id ?? `${r.name}|${r.countryCode}|${r.kind}|${r.latitude},${r.longitude}`;

async function get(url: string): Promise<{ data: Record[]; pagination: { nextCursor: string | null } }> {
  const response = await handle({ method: "GET", url, headers: { authorization: `Bearer ${DEMO_KEY}` } });
  expect(response.status, `${url}: ${Buffer.from(response.body).toString()}`).toBe(200);
  return JSON.parse(Buffer.from(response.body).toString());
}

describe("cursors pinned when they were issued", () => {
  test("cover every filter of every list", () => {
    const given = new Set(PINNED.flatMap((p) => [...new URL(p.url, "http://x").searchParams.keys()]));
    for (const table of Object.values(LIST_TABLES))
      for (const name of table.flatMap((row) => row.names)) if (name !== "cursor") expect(given).toContain(name);
  });

  test("cover every parameter of /v1/places, on /v1/places (decision: places)", () => {
    const places = PINNED.filter((p) => p.url.startsWith("/v1/places?"));
    const given = new Set(places.flatMap((p) => [...new URL(p.url, "http://x").searchParams.keys()]));
    for (const name of PLACE_PARAMETERS.flatMap((row) => row.names))
      if (name !== "cursor") expect(given).toContain(name);
  });

  test.each(PINNED.map((p) => [p.url, p] as const))("%s resumes with the same records", async (url, pinned) => {
    const first = await get(url);
    expect(idOf(first.data.at(-1)!)).toBe(pinned.lastId);
    const resumed = await get(`${url}&cursor=${pinned.cursor}`);
    expect(resumed.data.map(idOf)).toEqual(pinned.next);
    // Today's cursor for the same page is the same token: the binding did not move.
    expect(first.pagination.nextCursor).toBe(pinned.cursor);
  });
});

describe("adding a parameter", () => {
  const queries = PINNED.map((p) => new URL(p.url, "http://x"));

  test.each(queries.map((u) => [u.pathname + u.search, u] as const))(
    "%s: a table with one more row binds it exactly as before",
    (_, url) => {
      const resource = url.pathname.split("/")[2] as keyof typeof LIST_TABLES | "places";
      const table = resource === "places" ? PLACE_PARAMETERS : LIST_TABLES[resource];
      const bind = (rows: ParameterTable, query: string) =>
        resource === "places"
          ? bindingOf("listPlaces", boundFieldsOf(rows, parseTableQuery<object>(rows, query).query))
          : parseListRequestWith(rows, resource, query).binding;
      const before = bind(table, url.search.slice(1));
      expect(bind([...table, NEWCOMER], url.search.slice(1))).toBe(before);
      // Given, the newcomer is bound: a cursor from the first page does not fit a page with it.
      expect(bind([...table, NEWCOMER], `${url.search.slice(1)}&newcomer=x`)).not.toBe(before);
    },
  );

  test("two values of a later parameter bind apart, and its binding keeps every earlier one's", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ minLength: 1, maxLength: 8 }), (a, b) => {
        const base: Array<[string, unknown]> = [
          ["cinemaId", "c-1"],
          ["near", [1, 2, 25]],
        ];
        const withA = bindingOf("showtimes", [...base, ["newcomer", a]]);
        const withB = bindingOf("showtimes", [...base, ["newcomer", b]]);
        expect(withA === withB).toBe(a === b);
        expect(bindingOf("showtimes", base)).not.toBe(withA);
      }),
    );
  });

  test("each pinned cursor still decodes to its binding and sort key", () => {
    for (const p of PINNED) expect(decodeCursor(p.cursor), p.url).toBeDefined();
  });
});

/**
 * A filter row must bind (decision: pagination): a cursor issued with its sample values
 * (helpers/parameter-samples.ts, each name of the row with what it requires) is refused without
 * them or with their other values.
 */
function filterSample(row: { names: readonly string[] }) {
  const required = withRequired(row.names).filter((name) => !row.names.includes(name));
  return {
    base: required.length ? sampleQuery(required) : undefined,
    one: row.names.map((name) => `${name}=${encodeValue(sampleOf(name).one)}`).join("&"),
    other: row.names.map((name) => `${name}=${encodeValue(sampleOf(name).other)}`).join("&"),
  };
}

/** How many parts the sort key of a page with this query has (record-list.ts Seek). */
function keyLengths(resource: ListResource, query: string): number {
  const names = [...new URLSearchParams(query).keys()];
  if (resource === "showtimes") return 2;
  const rank = names.includes("q") ? 1 : 0;
  if (resource === "cinemas") return rank + (names.includes("near") ? 1 : 0) + 1;
  if (resource === "films") return rank + (names.some((n) => n !== "q") ? 2 : 0) + 1;
  return 1;
}

describe("every filter binds cursors", () => {
  const rows = Object.entries(LIST_TABLES).flatMap(([resource, table]) =>
    table.filter(isFilter).map((row) => [`${resource} ${row.key}`, resource as ListResource, row] as const),
  );

  test.each(rows)("%s: a cursor issued with it is refused without it and with another value", (_, resource, row) => {
    const sample = filterSample(row);
    const query = (extra?: string) => [sample.base, extra].filter(Boolean).join("&");
    const issued = parseListRequest(resource, query(sample.one));
    // A cursor of a page with the filter, whatever record it names.
    const sortKey = Array.from({ length: keyLengths(resource, query(sample.one)) - 1 }, () => "0000");
    const cursor = encodeCursorEscaped(issued.binding, sortKey, "some-id");
    expect(() => parseListRequest(resource, `${query(sample.one)}&cursor=${cursor}`)).not.toThrow();
    for (const elsewhere of [query(), query(sample.other)]) {
      expect(() => parseListRequest(resource, `${elsewhere}${elsewhere ? "&" : ""}cursor=${cursor}`)).toThrow(
        expect.objectContaining({ status: 400, details: { parameter: "cursor" } }),
      );
    }
  });
});

describe("a record's own list (a sub-resource)", () => {
  const scope = (filmId: string) => ({ endpoint: "films/cinemas", ids: [["filmId", filmId]] as const });

  test("binds its path's ids: a cursor of one film's list is refused on another's, and on the plain list", () => {
    const table = LIST_TABLES.cinemas;
    const issued = parseListRequestWith(table, "cinemas", "", scope("film-a"));
    const cursor = encodeCursorEscaped(issued.binding, undefined, "some-cinema");
    expect(() => parseListRequestWith(table, "cinemas", `cursor=${cursor}`, scope("film-a"))).not.toThrow();
    for (const elsewhere of [
      () => parseListRequestWith(table, "cinemas", `cursor=${cursor}`, scope("film-b")),
      () => parseListRequest("cinemas", `cursor=${cursor}`),
    ])
      expect(elsewhere).toThrow(expect.objectContaining({ status: 400, details: { parameter: "cursor" } }));
  });
});
