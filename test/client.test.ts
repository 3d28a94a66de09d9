/**
 * The typed client against the local server on an ephemeral port: every operation of spec §4 and
 * of decision: query parameters, iteration over all pages equal to the oracle, ids that need
 * percent-encoding, and ApiError carrying the envelope of spec §7. Its types are checked against
 * the zod schemas at compile time.
 */
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from "vitest";
import type { z } from "zod";
import type { ErrorCode as CoreErrorCode } from "../api/_core/respond/errors.js";
import type * as Schemas from "../build/openapi/schemas.js";
import type * as Records from "../build/validate/schemas.js";
import { ApiError, createClient, type Client } from "../client/index.js";
import type * as Types from "../client/types.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import {
  buildDataset,
  expectedList,
  generateDataset,
  TRICKY_CINEMA_IDS,
  TRICKY_FILM_IDS,
  type Dataset,
} from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";

describe("the client's types equal the schemas' (a mismatch fails tsc --noEmit)", () => {
  test("records, envelopes and error codes", () => {
    expectTypeOf<Types.Showtime>().toEqualTypeOf<z.infer<typeof Schemas.showtimeRecordSchema>>();
    expectTypeOf<Types.Cinema>().toEqualTypeOf<Records.Cinema>();
    expectTypeOf<Types.Film>().toEqualTypeOf<Records.Film>();
    expectTypeOf<Types.Attribute>().toEqualTypeOf<Records.Attribute>();
    expectTypeOf<Types.Page<Types.ServedShowtime>>().toEqualTypeOf<z.infer<typeof Schemas.showtimePageSchema>>();
    expectTypeOf<Types.SearchPage<Types.ServedCinema>>().toEqualTypeOf<z.infer<typeof Schemas.cinemaPageSchema>>();
    expectTypeOf<Types.Result<Types.ServedShowtime>>().toEqualTypeOf<z.infer<typeof Schemas.showtimeResultSchema>>();
    expectTypeOf<Types.SearchPage<Types.ServedFilm>>().toEqualTypeOf<z.infer<typeof Schemas.filmPageSchema>>();
    expectTypeOf<Types.Page<Types.Attribute>>().toEqualTypeOf<z.infer<typeof Schemas.attributePageSchema>>();
    expectTypeOf<Types.Result<Types.Cinema>>().toEqualTypeOf<z.infer<typeof Schemas.cinemaResultSchema>>();
    expectTypeOf<Types.Result<Types.Film>>().toEqualTypeOf<z.infer<typeof Schemas.filmResultSchema>>();
    expectTypeOf<Types.ErrorCode>().toEqualTypeOf<CoreErrorCode>();
    expectTypeOf<Types.Change>().toEqualTypeOf<z.infer<typeof Schemas.changeSchema>>();
    expectTypeOf<Types.ChangesPage>().toEqualTypeOf<z.infer<typeof Schemas.changesPageSchema>>();
  });
});

describe("the client against the local server", () => {
  let root: string;
  let server: Server;
  let baseUrl: string;
  let dataset: Dataset;
  let client: Client;
  const clientWith = (apiKey: string) => createClient({ baseUrl, apiKey });

  beforeAll(async () => {
    root = makeTempDir("client");
    dataset = generateDataset({ seed: 7, showtimes: 70 });
    await buildDataset(dataset, root, path.join(root, "snapshot"));
    ({ server, url: baseUrl } = await startServer({
      snapshotDir: path.join(root, "snapshot"),
      accessFile: writeAccessFile(root),
      port: 0,
      now: () => TEST_NOW,
      onError: () => {},
    }));
    client = clientWith(KEYS.bulk);
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (root) removeDir(root);
  });

  const ids = (records: { id: string }[]) => records.map((r) => r.id);
  const collect = async <T>(items: AsyncIterable<T>) => {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    return all;
  };

  test("listShowtimes returns one typed page with a cursor to the next", async () => {
    const page = await client.listShowtimes({ limit: 4 });
    expect(ids(page.data)).toEqual(ids(expectedList(dataset, "showtimes").slice(0, 4)));
    expect(page.pagination.hasMore).toBe(true);
    const next = await client.listShowtimes({ limit: 4, cursor: page.pagination.nextCursor! });
    expect(ids(next.data)).toEqual(ids(expectedList(dataset, "showtimes").slice(4, 8)));
  });

  test.each([
    ["showtimes", () => client.showtimes({ limit: 7 })],
    ["cinemas", () => client.cinemas({ limit: 3 })],
    ["films", () => client.films()],
    ["attributes", () => client.attributes({ limit: 1 })],
  ] as const)("%s() iterates every record of every page, in the API's order", async (resource, iterate) => {
    expect(ids(await collect<{ id: string }>(iterate()))).toEqual(ids(expectedList(dataset, resource)));
  });

  test("showtimes() keeps the filters on every page (cursors are bound to them)", async () => {
    const cinemaId = TRICKY_CINEMA_IDS[0]!;
    const filters = { cinemaId, startsAfter: "2026-11-23T12:00+01:00" };
    const all = await collect(client.showtimes({ ...filters, limit: 2 }));
    expect(ids(all)).toEqual(ids(expectedList(dataset, "showtimes", filters)));
  });

  /** The body the API sends for a URL written by hand, to compare with what the client asked. */
  const direct = async (url: string) => {
    const response = await fetch(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${KEYS.bulk}` } });
    expect(response.status, url).toBe(200);
    return (await response.json()) as { data: unknown[] };
  };

  test("listShowtimes sends every filter as the API spells it: a window, attributes, a place, embeds", async () => {
    const page = await client.listShowtimes({
      startsAfter: "2026-11-23T00:00Z",
      startsBefore: "2026-11-25T00:00+01:00",
      attributeIds: ["lang-en", "access/ad"],
      near: { latitude: 51.5, longitude: -0.125, radiusKm: 0.5 },
      include: ["film", "cinema"],
      limit: 3,
    });
    const url =
      "/v1/showtimes?startsAfter=2026-11-23T00%3A00Z&startsBefore=2026-11-25T00%3A00%2B01%3A00" +
      "&attributeIds=lang-en,access%2Fad&limit=3&near=51.5,-0.125&radiusKm=0.5&include=film,cinema";
    expect(page).toEqual(await direct(url));
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data[0]!.film?.id).toBe(page.data[0]!.filmId);
    expect(page.data[0]!.cinema?.id).toBe(page.data[0]!.cinemaId);
  });

  test("getShowtime returns one showtime, with its film when asked", async () => {
    const [first] = expectedList(dataset, "showtimes") as Array<{ id: string; filmId: string }>;
    const result = await client.getShowtime(first!.id, { include: ["film"] });
    expect(result.data.id).toBe(first!.id);
    expect(result.data.film?.id).toBe(first!.filmId);
    expect(result).toEqual(await direct(`/v1/showtimes/${encodeURIComponent(first!.id)}?include=film`));
  });

  test("cinemas() near a point iterates nearest first, with distanceKm, across pages", async () => {
    const all = await collect(
      client.cinemas({ near: { latitude: 51.5, longitude: -0.125 }, countryCode: "DE", limit: 1 }),
    );
    const page = await direct("/v1/cinemas?near=51.5,-0.125&countryCode=DE&limit=100");
    expect(all).toEqual(page.data);
    expect(all.every((c) => c.distanceKm === 0)).toBe(true);
  });

  const ADDRESSABLE = TRICKY_CINEMA_IDS.filter((id) => id !== "." && id !== "..");

  test.each(ADDRESSABLE.map((id) => [id]))("getCinema percent-encodes the id %j", async (id) => {
    expect((await client.getCinema(id)).data.id).toBe(id);
  });

  test.each([["."], [".."]])("getCinema refuses the id %j: URL parsers drop dot segments, even encoded", async (id) => {
    await expect(client.getCinema(id)).rejects.toThrow(RangeError);
  });

  test.each(
    TRICKY_FILM_IDS.map((id) => [id.length > 20 ? `${id.slice(0, 8)}… (${[...id].length} code points)` : id, id]),
  )("getFilm percent-encodes the id %s", async (_label, id) => {
    expect((await client.getFilm(id)).data.id).toBe(id);
  });

  test("listCinemas, listFilms and listAttributes return typed pages", async () => {
    const [cinemas, films, attributes] = await Promise.all([
      client.listCinemas(),
      client.listFilms({ limit: 2 }),
      client.listAttributes(),
    ]);
    expect(ids(cinemas.data)).toEqual(ids(expectedList(dataset, "cinemas").slice(0, 25)));
    expect(films.data).toHaveLength(2);
    expect(attributes.pagination).toEqual({ nextCursor: null, hasMore: false });
  });

  // What the call does, the key, status and code the ApiError must carry, the same request by hand, and why.
  test.each<[string, (c: Client) => Promise<unknown>, string, number, string, string]>([
    ["no such film", (c) => c.getFilm("no-such-film"), KEYS.bulk, 404, "not_found", "/v1/films/no-such-film"],
    [
      "a limit out of range",
      (c) => c.listShowtimes({ limit: 101 }),
      KEYS.bulk,
      400,
      "bad_request",
      "/v1/showtimes?limit=101",
    ],
    ["an unknown key", (c) => c.listCinemas(), "cl_not_a_key", 401, "unauthorized", "/v1/cinemas"],
    [
      "an organization without a paid entitlement",
      (c) => c.listFilms(),
      KEYS.cancelled,
      403,
      "entitlement_required",
      "/v1/films",
    ],
    [
      "an error met while iterating",
      (c) => collect(c.showtimes({ startsAfter: "2026-02-30T00:00Z" })),
      KEYS.bulk,
      400,
      "bad_request",
      "/v1/showtimes?startsAfter=2026-02-30T00%3A00Z",
    ],
  ])(
    "%s throws ApiError with the API's status, code, message and request id",
    async (_what, call, key, status, code, url) => {
      const error = await call(clientWith(key)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      const apiError = error as ApiError;
      expect([apiError.status, apiError.code]).toEqual([status, code]);
      expect(apiError.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // The message is the envelope's, word for word: the one the API sends for that request.
      const response = await fetch(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${key}` } });
      const { error: sent } = (await response.json()) as { error: { code: string; message: string } };
      expect([response.status, sent.code]).toEqual([status, code]);
      expect(apiError.message).toBe(sent.message);
    },
  );

  test("a 400 carries details.parameter", async () => {
    const error = (await client.listShowtimes({ limit: 0 }).catch((e: unknown) => e)) as ApiError;
    expect(error.details).toEqual({ parameter: "limit" });
  });

  test("a 429 carries retryAfter from Retry-After", async () => {
    const tiny = clientWith(KEYS.tiny2);
    const errors = await Promise.all(
      Array.from({ length: 5 }, () =>
        tiny.listAttributes().then(
          () => undefined,
          (e: ApiError) => e,
        ),
      ),
    );
    // tiny-co allows 3 requests per 60 s, and the server's clock (TEST_NOW) is 39 s before the window ends.
    const limited = errors.filter((e) => e !== undefined);
    expect(limited.map((e) => [e.status, e.code, e.retryAfter])).toEqual([
      [429, "rate_limited", 39],
      [429, "rate_limited", 39],
    ]);
  });

  test(
    "changes(): a for await loop finds the sync token on the feed once the last page is applied " +
      "(decision: changes feed)",
    async () => {
      const feed = client.changes({ limit: 40 });
      const seen: Array<string | undefined> = [];
      const pages: Types.ChangesPage[] = [];
      for await (const page of feed) {
        seen.push(feed.syncToken);
        pages.push(page);
      }
      expect(pages.length).toBeGreaterThan(2);
      // Never while a page is being applied, the last one included: stored too early, it would skip that page.
      expect(seen).toEqual(pages.map(() => undefined));
      expect(feed.syncToken).toBe(pages.at(-1)!.syncToken);
      expect(feed.syncToken).toMatch(/^\S{10,}$/);
      // The token is the one a catch-up starts from: nothing has changed since.
      const caughtUp = client.changes({ since: feed.syncToken });
      for await (const page of caughtUp) expect(page.data).toEqual([]);
      expect(caughtUp.syncToken).toBe(feed.syncToken);
    },
  );

  test("changes(): next() still returns the token when done; a loop left early leaves none", async () => {
    const feed = client.changes({ limit: 40 });
    let step = await feed.next();
    while (!step.done) step = await feed.next();
    expect(step.value).toBe(feed.syncToken);
    const left = client.changes({ limit: 40 });
    for await (const _page of left) break;
    expect(left.syncToken).toBeUndefined();
  });

  test("an answer that is not the API's envelope becomes invalid_response, not a crash", async () => {
    const proxy = createClient({
      baseUrl: "http://proxy.invalid",
      apiKey: "k",
      fetch: async () =>
        new Response("<html>502 Bad Gateway</html>", { status: 502, headers: { "content-type": "text/html" } }),
    });
    const error = (await proxy.listFilms().catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([502, "invalid_response"]);
  });
});
