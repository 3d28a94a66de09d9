/**
 * One definition per query parameter (decision: query parameters): every layer that names a list
 * parameter is derived from, or checked against, its endpoint's table (api/_core/endpoints/parameters/) —
 * the route's strict parsing, the OpenAPI document, the typed client's query types and the query
 * strings it sends — and a stored page answers a request only when its query is exactly a stored
 * page's (decision: stored and composed pages).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { staticAccess } from "../api/_core/gate/access.js";
import { composeListInto } from "../api/_core/compose/compose-list.js";
import { PageBuffer } from "../api/_core/format/primitives/page-buffer.js";
import { Snapshot, readManifest } from "../api/_core/format/read/snapshot.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler } from "../api/_core/handle-request.js";
import { CHANGES_PARAMETERS } from "../api/_core/endpoints/parameters/changes.js";
import { namesOf } from "../api/_core/endpoints/parameters/parameter.js";
import { PLACE_PARAMETERS } from "../api/_core/endpoints/parameters/places.js";
import {
  isStoredPageRequest,
  LIST_TABLES,
  ONE_TABLES,
  parseListRequest,
  parseListRequestWith,
} from "../api/_core/endpoints/parse-request.js";
import { createOpenApiDocument } from "../build/openapi/openapi.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { createClient } from "../client/index.js";
import type {
  ChangesParams,
  CinemaFilters,
  FilmFilters,
  ListParams,
  PlaceParams,
  ShowtimeFilters,
} from "../client/types.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { NEWCOMER } from "./helpers/newcomer-parameter.js";
import { encodeValue, namesWithoutSamples, sampleOf, withRequired } from "./helpers/parameter-samples.js";

/** Showtime filters of a showing: what the showtime, cinema and film lists share. */
const SHOWING = {
  startsAfter: "2026-11-24T00:00Z",
  startsBefore: "2026-11-30T00:00Z",
  date: "2026-11-25",
  dayStartsAt: "03:00",
  attributeIds: ["lang-en"],
  anyAttributeIds: ["format-imax", "format-2d"],
};

/**
 * A value of every field of each list call's query, typed `Required`, so a field the client gains
 * or loses fails tsc until it is here; the tests below check these fields are the tables' rows and
 * go out under the tables' names.
 */
const CLIENT_QUERIES = {
  showtimes: {
    ...SHOWING,
    cinemaId: "gb-lon-odeon-leicester-sq",
    filmId: "film-orbit-of-ash",
    date: "2026-11-25",
    near: { latitude: 51.5101, longitude: -0.134, radiusKm: 5 },
    include: ["film", "cinema"],
    limit: 5,
    cursor: "c",
  } satisfies Required<ShowtimeFilters & ListParams>,
  cinemas: {
    ...SHOWING,
    near: { latitude: 1, longitude: 2, radiusKm: 3 },
    countryCode: "DE",
    chainId: "odeon",
    filmId: "film-orbit-of-ash",
    q: "odeon",
    limit: 2,
    cursor: "c",
  } satisfies Required<CinemaFilters & ListParams>,
  films: {
    ...SHOWING,
    cinemaId: "gb-lon-odeon-leicester-sq",
    near: { latitude: 1, longitude: 2, radiusKm: 3 },
    countryCode: "DE",
    q: "orbit",
    limit: 2,
    cursor: "c",
  } satisfies Required<FilmFilters & ListParams>,
  attributes: { limit: 2, cursor: "c" } satisfies Required<ListParams>,
  changes: { since: "t", limit: 2, cursor: "c" } satisfies Required<ChangesParams>,
  places: { q: "london", countryCode: "GB", limit: 2, cursor: "c" } satisfies Required<PlaceParams>,
};

/** Every endpoint's table: the lists', the changes feed's and the places' (decision: places). */
const TABLES = { ...LIST_TABLES, changes: CHANGES_PARAMETERS, places: PLACE_PARAMETERS };

const OPERATION_PATHS = {
  showtimes: "/v1/showtimes",
  cinemas: "/v1/cinemas",
  films: "/v1/films",
  attributes: "/v1/attributes",
  changes: "/v1/changes",
  places: "/v1/places",
} as const;

const resources = Object.keys(TABLES) as Array<keyof typeof TABLES>;

describe("every row of every table", () => {
  test("has sample values in test/helpers/parameter-samples.ts, which every test sending it draws from", () => {
    expect(namesWithoutSamples()).toEqual([]);
  });

  test.each(resources)("%s: each row has a key and names of its own (a copied row must be renamed)", (resource) => {
    const table = TABLES[resource];
    const keys = table.map((row) => row.key);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
    const names = namesOf(table);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  const rows = [...resources.flatMap((r) => TABLES[r].map((row) => [r, row] as const))];

  test.each(rows.map(([r, row]) => [r, row.key, row] as const))(
    "%s %s: one OpenAPI parameter per name",
    (_, __, row) => {
      expect(row.openapi.map((o) => o.parameter.name)).toEqual(row.names);
    },
  );

  test.each(resources)("%s: the OpenAPI operation lists exactly the table's parameters", (resource) => {
    const document = createOpenApiDocument() as any;
    const operation = document.paths[OPERATION_PATHS[resource]].get;
    const names = operation.parameters.map((p: { $ref: string }) => {
      const component = p.$ref.split("/").at(-1)!;
      return document.components.parameters[component].name;
    });
    expect([...names].sort()).toEqual(namesOf(TABLES[resource]).sort());
  });

  test("the showtime get-one's OpenAPI parameters are its table's, with the path id", () => {
    const document = createOpenApiDocument() as any;
    const operation = document.paths["/v1/showtimes/{showtimeId}"].get;
    const names = operation.parameters.map((p: { $ref: string }) => p.$ref.split("/").at(-1));
    expect(names).toEqual([
      "showtimeId",
      ...ONE_TABLES.showtimes.flatMap((row) => row.openapi.map((o) => o.component)),
    ]);
  });

  test.each(resources)("%s: the client's query fields are the table's", (resource) => {
    expect(Object.keys(CLIENT_QUERIES[resource]).sort()).toEqual(TABLES[resource].map((row) => row.client).sort());
  });
});

describe("the endpoint tables of the README and the docs page", () => {
  const PATHS = {
    showtimes: "/v1/showtimes",
    cinemas: "/v1/cinemas",
    films: "/v1/films",
    attributes: "/v1/attributes",
  };
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const page = readFileSync(path.join(ROOT, "public/index.html"), "utf8");

  test.each(Object.entries(PATHS))("%s: both name exactly the table's parameters", (resource, route) => {
    const names = namesOf(LIST_TABLES[resource as keyof typeof PATHS]).sort();
    const readmeRow = readme.split("\n").find((line) => line.startsWith(`| \`GET ${route}\` |`))!;
    expect([...readmeRow.split("|")[2]!.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort()).toEqual(names);
    const pageRow = page.split("\n").find((line) => line.includes(`<code>GET ${route}</code>`))!;
    const cell = pageRow.split("</td><td>")[1]!;
    expect([...cell.matchAll(/<code>(\w+)<\/code>/g)].map((m) => m[1]).sort()).toEqual(names);
  });
});

describe("the typed client sends what the tables name", () => {
  /** The query of every request the client makes for a call. */
  type Client = ReturnType<typeof createClient>;
  async function queriesOf(call: (client: Client) => Promise<unknown>) {
    const seen: URL[] = [];
    const client = createClient({
      baseUrl: "http://api.test",
      apiKey: "k",
      fetch: async (url) => {
        seen.push(new URL(String(url)));
        return new Response(
          JSON.stringify({ data: [], pagination: { nextCursor: null, hasMore: false }, freshness: {} }),
        );
      },
    });
    await call(client);
    return seen.map((u) => u.searchParams);
  }

  const CALLS = {
    showtimes: (c: Client) => c.listShowtimes(CLIENT_QUERIES.showtimes),
    cinemas: (c: Client) => c.listCinemas(CLIENT_QUERIES.cinemas),
    films: (c: Client) => c.listFilms(CLIENT_QUERIES.films),
    attributes: (c: Client) => c.listAttributes(CLIENT_QUERIES.attributes),
    changes: (c: Client) => c.listChanges(CLIENT_QUERIES.changes),
    places: (c: Client) => c.listPlaces(CLIENT_QUERIES.places),
  } satisfies Record<keyof typeof TABLES, unknown>;

  test.each(resources)("%s: every field goes out under its table's names, and nothing else", async (resource) => {
    const [query] = await queriesOf(CALLS[resource]);
    expect([...query!.keys()].sort()).toEqual(namesOf(TABLES[resource]).sort());
  });
});

describe("stored pages are chosen by allow-list", () => {
  test(
    "random queries, with a parameter the stored-page choice has never heard of, are stored only when " +
      "paging alone at the default limit",
    () => {
      const showtimeNames = namesOf(LIST_TABLES.showtimes).filter((n) => n !== "cursor");
      const value = (name: string) => (name === "newcomer" ? "x" : encodeValue(sampleOf(name).one));
      fc.assert(
        fc.property(fc.subarray([...showtimeNames, "newcomer"]), fc.constantFrom("25", "24"), (drawn, limit) => {
          const names = withRequired(drawn);
          const query = names.map((n) => `${n}=${n === "limit" ? limit : value(n)}`).join("&");
          const table = [...LIST_TABLES.showtimes, NEWCOMER];
          const request = parseListRequestWith(table, "showtimes", query);
          const pagingAlone = names.every((n) => n === "limit");
          const atDefault = !names.includes("limit") || limit === "25";
          expect(isStoredPageRequest(request, 25)).toBe(pagingAlone && atDefault);
        }),
      );
    },
  );
});

describe("a served page is the page its query composes (never a stored one it does not ask for)", () => {
  let work: string;
  let snapshot: Snapshot;
  let handle: ReturnType<typeof createHandler>;
  const KEY = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";

  beforeAll(async () => {
    work = makeTempDir("tables-");
    const result = await runBuild({
      dataDir: path.join(ROOT, "test/fixtures/demo-2026-11"),
      output: createDiskWriter(work),
      gzipWorkers: 0,
    });
    expect(result.ok).toBe(true);
    snapshot = new Snapshot(readManifest(work), work, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
    const access = staticAccess(readFileSync(path.join(ROOT, "data/demo-access.json"), "utf8"), "demo");
    handle = createHandler({ snapshots: new SnapshotSource(work), access, now: () => new Date("2026-11-24T12:00Z") });
  });
  afterAll(() => {
    snapshot.close();
    removeDir(work);
  });

  const PARAMETER_VALUES: Record<string, fc.Arbitrary<string>> = {
    cinemaId: fc.constantFrom("gb-lon-odeon-leicester-sq", "de-ber-cinemaxx-potsdamer-platz", "nope"),
    filmId: fc.constantFrom("film-orbit-of-ash", "film-paper-lanterns", "nope"),
    limit: fc.constantFrom("1", "7", "25", "100"),
    startsAfter: fc.constantFrom("2026-11-24T00:00Z", "2026-11-26T18:00%2B01:00"),
    startsBefore: fc.constantFrom("2026-11-27T00:00Z", "2026-12-24T00:00Z"),
    attributeIds: fc.constantFrom("lang-en", "format-2d,lang-en", "format-imax"),
    anyAttributeIds: fc.constantFrom("format-imax,format-3d", "lang-de"),
    near: fc.constantFrom("51.5101,-0.1340", "52.52,13.405"),
    radiusKm: fc.constantFrom("5", "500"),
    include: fc.constantFrom("film", "cinema,film"),
    countryCode: fc.constantFrom("DE", "GB"),
    date: fc.constantFrom("2026-11-24", "2026-11-26", "2027-01-01"),
    dayStartsAt: fc.constantFrom("00:00", "03:00", "05:59"),
  };

  test.each(["showtimes", "cinemas", "films", "attributes"] as const)(
    "%s: random parameter sets, page 1 and the page its cursor names",
    async (resource) => {
      const names = namesOf(LIST_TABLES[resource]).filter((n) => n !== "cursor");
      await fc.assert(
        fc.asyncProperty(fc.subarray(names), fc.record(PARAMETER_VALUES), async (chosen, value) => {
          const given = withRequired(chosen);
          // The demo's own ids and dates where this test has them, else the parameter's sample.
          let query = given.map((n) => `${n}=${value[n] ?? encodeValue(sampleOf(n).one)}`).join("&");
          for (let page = 0; page < 2; page++) {
            const response = await handle({
              method: "GET",
              url: `/v1/${resource}${query ? `?${query}` : ""}`,
              headers: { authorization: `Bearer ${KEY}` },
            });
            expect(response.status).toBe(200);
            const out = new PageBuffer();
            composeListInto(snapshot.lists, parseListRequest(resource, query), snapshot.manifest.freshness, out);
            const served = Buffer.from(response.body).toString();
            expect(served).toBe(out.finish().toString());
            const next = JSON.parse(served).pagination.nextCursor;
            if (!next) break;
            query = `${query}${query ? "&" : ""}cursor=${next}`;
          }
        }),
        { numRuns: 40 },
      );
    },
  );
});
