/**
 * The OpenAPI document of spec §4's endpoints, §7's errors and decision: query parameters: a valid
 * OpenAPI 3.1 document, committed as generated, that describes what the core really does.
 * Responses of a built sample snapshot, for every status of spec §4.8, validate against it with a
 * standard validator (ajv 2020-12 + ajv-formats).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkDateTime } from "../api/_core/format/primitives/date-time.js";
import { staticAccess } from "../api/_core/gate/access.js";
import { createHandler } from "../api/_core/handle-request.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import {
  createOpenApiDocument,
  PUBLIC_DIR,
  redocBundlePath,
  renderOpenApi,
  servedRedocBundle,
} from "../build/openapi/openapi.js";
import { OPERATIONS } from "../build/openapi/operations.js";
import { ROUTES, templateOf } from "../api/_core/endpoints/routes.js";
import { createClient } from "../client/index.js";
import { ERROR_CODES } from "../api/_core/respond/errors.js";
import { DATE_TIME_PATTERN } from "../build/openapi/schemas.js";
import { createResponseValidator } from "../build/openapi/validate.js";
import { ROOT, makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, generateDataset, TRICKY_CINEMA_IDS, TRICKY_FILM_IDS } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import { sampleOf } from "./helpers/parameter-samples.js";

const doc = createOpenApiDocument() as Record<string, any>;
const validator = createResponseValidator(doc);
const enc = encodeURIComponent;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The request core in-process, with the HTTP suite's access file and clock. */
function coreClient(snapshots: SnapshotSource, accessFile: string) {
  const handle = createHandler({
    snapshots,
    access: staticAccess(readFileSync(accessFile, "utf8")),
    now: () => TEST_NOW,
    onError: () => {},
  });
  return async (url: string, key?: string, headers: Record<string, string> = {}): Promise<Answer> =>
    handle({ method: "GET", url, headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}) } });
}

/** Builds a generated dataset into a temp folder for one describe block; removed after it. */
function useSnapshot(seed: number, showtimes: number) {
  const fixture = { root: "", snapshotDir: "", accessFile: "" };
  beforeAll(async () => {
    fixture.root = makeTempDir("openapi");
    fixture.snapshotDir = path.join(fixture.root, "snapshot");
    fixture.accessFile = writeAccessFile(fixture.root);
    await buildDataset(generateDataset({ seed, showtimes }), fixture.root, fixture.snapshotDir);
  });
  afterAll(() => removeDir(fixture.root));
  return fixture;
}

describe("the document and what serves it", () => {
  test("documents exactly the endpoints the route table serves", () => {
    const document = createOpenApiDocument() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).sort()).toEqual(ROUTES.map(templateOf).sort());
  });

  test("every operation is a method of the typed client, named by its operationId", () => {
    const client = createClient({ baseUrl: "http://api.test", apiKey: "k" }) as unknown as Record<string, unknown>;
    for (const op of OPERATIONS) expect(typeof client[op.operationId], op.operationId).toBe("function");
  });
});

describe("the document", () => {
  test("is refreshed in the repository's own public/ folder, where the committed copy is", () => {
    expect(PUBLIC_DIR).toBe(path.join(ROOT, "public"));
  });

  test("is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)", async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test(
    "public/openapi.json is the generated document, byte for byte (refresh: npx tsx " + "build/openapi/openapi.ts)",
    () => {
      expect(readFileSync(path.join(ROOT, "public/openapi.json"), "utf8")).toBe(renderOpenApi());
    },
  );

  test(
    "public/redoc.standalone.js is the installed Redoc bundle with its logo inline (refresh: npx tsx " +
      "build/openapi/openapi.ts)",
    () => {
      const served = readFileSync(path.join(ROOT, "public/redoc.standalone.js"));
      expect(served.equals(servedRedocBundle())).toBe(true);
      expect(served.toString().includes("cdn.redoc.ly")).toBe(false);
      expect(served.length - readFileSync(redocBundlePath()).length).toBeLessThan(400);
    },
  );

  test("lists exactly the spec's error codes (spec §7)", () => {
    const spec = [
      "bad_request",
      "database_unavailable",
      "entitlement_required",
      "forbidden",
      "internal_error",
      "not_found",
      "rate_limited",
      "unauthorized",
    ];
    expect(doc.components.schemas.ErrorCode.enum).toEqual(spec);
    expect([...ERROR_CODES]).toEqual(spec);
  });

  test.each(
    OPERATIONS.map((op) => [
      op.operationId,
      op.notFound
        ? "200 304 400 401 403 404 429 500 503"
        : op.feed
          ? "200 304 400 401 403 410 429 500 503"
          : "200 304 400 401 403 429 500 503",
    ]),
  )("%s documents the statuses of spec §4.8 (plus 304): %s", (operationId, statuses) => {
    const documented = Object.keys(
      doc.paths[OPERATIONS.find((op) => op.operationId === operationId)!.path].get.responses,
    );
    expect(documented.join(" ")).toBe(statuses);
  });

  test("every example in the document conforms to its own schema", () => {
    const problems: string[] = [];
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
      for (const example of schema.examples ?? [])
        problems.push(...validator.checkValue(schema, example).map((p) => `${name}: ${p}`));
    }
    for (const [name, response] of Object.entries<any>(doc.components.responses)) {
      const media = response.content?.["application/json"];
      if (media?.example)
        problems.push(...validator.checkValue(media.schema, media.example).map((p) => `${name}: ${p}`));
    }
    for (const [name, parameter] of Object.entries<any>(doc.components.parameters)) {
      if (parameter.example)
        problems.push(...validator.checkValue(parameter.schema, parameter.example).map((p) => `${name}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  // The pattern states the form; calendar validity is in the description. Each case: value, reason.
  test.each([
    ["2026-11-24T18:00Z", "hh:mm without seconds: the spec allows it, JSON Schema's date-time does not"],
    ["2026-11-24T18:00:05+01:00", "seconds and an offset"],
    ["2026-11-24T18:00:05.123456789-05:30", "any number of fractional digits"],
    ["2026-11-24T18:00", "no zone"],
    ["2026-11-24 18:00Z", "a space instead of T"],
    ["2026-11-24t18:00z", "lowercase t and z"],
    ["2026-11-24T18Z", "no minutes"],
    ["2026-11-24T18:00:05+0100", "an offset without a colon"],
    ["2026-11-24T18:00:05.Z", "a dot without digits"],
  ])("the DateTime pattern agrees with the core on %s (%s)", (value) => {
    expect(new RegExp(DATE_TIME_PATTERN).test(value)).toBe(checkDateTime(value).ok);
  });
});

describe("the response validator is not vacuous", () => {
  const film = { id: "f", title: "T", provenance: { observedAt: "2026-11-24T18:00Z", provider: "p", externalId: "e" } };
  const page = {
    data: [film],
    pagination: { nextCursor: null, hasMore: false },
    freshness: { observedAt: "2026-11-24T18:00Z" },
  };
  const error = (code: string) => ({ error: { code, message: "m", requestId: "r" } });
  // reason it must be refused, operationId, status, body
  test.each<[string, string, number, unknown]>([
    ["a field the spec does not have", "listFilms", 200, { ...page, extra: true }],
    ["an empty cursor", "listFilms", 200, { ...page, pagination: { nextCursor: "", hasMore: true } }],
    ["no freshness", "listFilms", 200, { data: [film], pagination: page.pagination }],
    ["a date-time without a zone", "listFilms", 200, { ...page, freshness: { observedAt: "2026-11-24T18:00" } }],
    ["a date that does not exist", "listFilms", 200, { ...page, data: [{ ...film, releaseDate: "2023-02-29" }] }],
    ["a duration past 1000", "listFilms", 200, { ...page, data: [{ ...film, durationMinutes: 1001 }] }],
    ["a list where one record belongs", "getFilm", 200, { data: [film], freshness: page.freshness }],
    ["a code that does not go with the status", "getFilm", 401, error("not_found")],
    ["a code outside the spec's enumeration", "getFilm", 404, error("gone")],
  ])("refuses %s (%s %i)", (_reason, operationId, status, body) => {
    expect(validator.checkBody(operationId, status, body)).not.toEqual([]);
  });

  test("a header documented as always sent is reported when missing", () => {
    expect(
      validator.checkHeaders("listFilms", 200, { "x-request-id": "r", etag: '"x"', "cache-control": "private" }),
    ).toEqual([
      "listFilms 200: header RateLimit-Policy is documented as always sent but is missing",
      "listFilms 200: header RateLimit is documented as always sent but is missing",
    ]);
  });
});

describe("the document matches the core's parameters", () => {
  const fixture = useSnapshot(4, 12);
  const request = (url: string) =>
    coreClient(new SnapshotSource(fixture.snapshotDir), fixture.accessFile)(url, KEYS.bulk);

  const listOperations = OPERATIONS.filter((op) => !op.getOne);

  /** The operation's path with each id in it naming a record of the snapshot (the first of its list). */
  async function pathOf(template: string): Promise<string> {
    let filled = template;
    for (const id of ROUTES.find((route) => templateOf(route) === template)!.ids) {
      const first = JSON.parse((await request(`/v1/${id.names}?limit=1`)).body.toString()).data[0].id as string;
      filled = filled.replace(`{${id.parameter}}`, encodeURIComponent(first));
    }
    return filled;
  }

  test.each(listOperations.map((op) => [op.operationId, op.path]))(
    "%s accepts every documented query parameter",
    async (_id, template) => {
      const opPath = await pathOf(template);
      const names = (doc.paths[template].get.parameters as { $ref: string }[])
        .map((p) => doc.components.parameters[p.$ref.split("/").pop()!])
        .filter((p) => p.in === "query" && p.name !== "cursor")
        .map((p) => p.name as string);
      // A sync token is the snapshot's own: the one a full copy ends with.
      const since = async () => JSON.parse((await request(`${opPath}?limit=5000`)).body.toString()).syncToken;
      const value = async (name: string) => (name === "since" ? since() : sampleOf(name).one);
      const query = (await Promise.all(names.map(async (name) => `${name}=${enc(await value(name))}`))).join("&");
      const response = await request(`${opPath}?${query}`);
      expect(response.status, response.body.toString()).toBe(200);
    },
  );

  test.each(listOperations.map((op) => [op.operationId, op.path]))(
    "%s refuses a parameter the document does not list",
    async (_id, template) => {
      const response = await request(`${await pathOf(template)}?sort=id`);
      expect(response.status).toBe(400);
    },
  );
});

describe("responses of a built sample snapshot conform to the document", () => {
  const fixture = useSnapshot(20_261_124, 60);
  const client = (snapshots = new SnapshotSource(fixture.snapshotDir)) => coreClient(snapshots, fixture.accessFile);

  /** Sends one request and checks body and always-sent headers against what the operation documents. */
  async function expectDocumented(operationId: string, status: number, send: () => Promise<Answer>) {
    const response = await send();
    expect(response.status, response.body.toString()).toBe(status);
    const body = response.body.length ? JSON.parse(response.body.toString("utf8")) : undefined;
    expect(validator.checkBody(operationId, status, body)).toEqual([]);
    expect(validator.checkHeaders(operationId, status, response.headers)).toEqual([]);
    return body;
  }

  const first = TRICKY_CINEMA_IDS[0]!;
  // operationId, path, key, status, reason
  const CASES: Array<[string, string, keyof typeof KEYS | null, number, string]> = [
    ["listShowtimes", "/v1/showtimes", "valid", 200, "a precomputed first page"],
    [
      "listShowtimes",
      `/v1/showtimes?cinemaId=${enc(first)}&limit=3&startsAfter=2026-11-23T00:00Z`,
      "valid",
      200,
      "a composed, filtered page",
    ],
    [
      "listShowtimes",
      "/v1/showtimes?cinemaId=nobody-has-this",
      "valid",
      200,
      "an empty page: snapshot freshness, nextCursor null",
    ],
    ["listCinemas", "/v1/cinemas?limit=100", "valid", 200, "every cinema, tricky ids included"],
    ["listFilms", "/v1/films?limit=2", "valid", 200, "films, with a next page"],
    ["listAttributes", "/v1/attributes", "valid", 200, "attributes: no provenance, snapshot freshness"],
    ["getCinema", `/v1/cinemas/${enc(first)}`, "valid", 200, "a cinema whose id holds '/'"],
    ["getFilm", `/v1/films/${enc(TRICKY_FILM_IDS[4]!)}`, "valid", 200, "a film whose id is 160 astral code points"],
    ["listShowtimes", "/v1/showtimes?limit=0", "valid", 400, "limit below 1"],
    ["getCinema", `/v1/cinemas/${enc(first)}?limit=1`, "valid", 400, "a get-one takes no parameters"],
    ["listFilms", "/v1/films", null, 401, "no key"],
    ["getFilm", "/v1/films/film-0", "cancelled", 403, "an organization without an active paid entitlement"],
    ["getFilm", "/v1/films/no-such-film", "valid", 404, "an unknown film"],
    ["getCinema", "/v1/cinemas/no-such-cinema", "valid", 404, "an unknown cinema"],
    [
      "listShowtimes",
      "/v1/showtimes?include=film,cinema&limit=5",
      "valid",
      200,
      "showtimes with film and cinema embedded",
    ],
    [
      "listShowtimes",
      "/v1/showtimes?near=51.5,-0.125&radiusKm=10&startsBefore=2026-11-30T00:00Z",
      "valid",
      200,
      "showtimes near a point, in a window",
    ],
    ["listCinemas", "/v1/cinemas?near=51.5,-0.125&radiusKm=500", "valid", 200, "cinemas near a point, with distanceKm"],
    ["listCinemas", "/v1/cinemas?countryCode=GB", "valid", 200, "cinemas of one country"],
    ["getShowtime", "/v1/showtimes/no-such-showtime", "valid", 404, "an unknown showtime"],
    ["getShowtime", "/v1/showtimes/x?limit=1", "valid", 400, "a get-one showtime takes only include"],
  ];

  test.each(CASES)("%s %s (key %s) → %i: %s", async (operationId, url, key, status) => {
    await expectDocumented(operationId, status, () => client()(url, key ? KEYS[key] : undefined));
  });

  test("a showtime by id, with and without embeds, conforms", async () => {
    const first = (await client()("/v1/showtimes?limit=1", KEYS.valid)).body.toString();
    const id = JSON.parse(first).data[0].id as string;
    for (const query of ["", "?include=film", "?include=cinema,film"]) {
      const body = await expectDocumented("getShowtime", 200, () =>
        client()(`/v1/showtimes/${enc(id)}${query}`, KEYS.valid),
      );
      expect(body.data.id).toBe(id);
    }
  });

  test("every page of showtimes, followed to the last, conforms; the last has nextCursor null", async () => {
    const request = client();
    let url: string | null = "/v1/showtimes?limit=9";
    let pages = 0;
    let last: any;
    while (url) {
      last = await expectDocumented("listShowtimes", 200, () => request(url!, KEYS.bulk));
      pages++;
      url = last.pagination.nextCursor ? `/v1/showtimes?limit=9&cursor=${last.pagination.nextCursor}` : null;
    }
    expect(pages).toBe(Math.ceil(60 / 9));
    expect(last.pagination).toEqual({ nextCursor: null, hasMore: false });
  });

  test("304: If-None-Match with the current ETag", async () => {
    const request = client();
    const { headers } = await request("/v1/cinemas", KEYS.bulk);
    await expectDocumented("listCinemas", 304, () =>
      request("/v1/cinemas", KEYS.bulk, { "if-none-match": headers.etag! }),
    );
  });

  test("429: the organization's quota (3 per minute) is used up", async () => {
    const request = client();
    for (let i = 0; i < 3; i++) await expectDocumented("listCinemas", 200, () => request("/v1/cinemas", KEYS.tiny));
    await expectDocumented("listCinemas", 429, () => request("/v1/cinemas", KEYS.tiny));
  });

  test("500: an unexpected failure gives internal_error and no internals", async () => {
    const broken = {
      current: () => {
        throw new Error("disk on fire at /secret/path");
      },
    } as unknown as SnapshotSource;
    const body = await expectDocumented("getCinema", 500, () => client(broken)(`/v1/cinemas/${enc(first)}`, KEYS.bulk));
    expect(JSON.stringify(body)).not.toContain("/secret/path");
  });

  test("503: no snapshot is deployed", async () => {
    const missing = new SnapshotSource(path.join(fixture.root, "no-snapshot-here"));
    await expectDocumented("listShowtimes", 503, () => client(missing)("/v1/showtimes", KEYS.bulk));
  });
});
