/**
 * A typed client of the Cinema Listings API for TypeScript users: one method per operation of
 * the OpenAPI document, async iterators over every page, and ApiError for every failure of a
 * request, a network failure included (decision: the typed client's failures).
 *
 *     const client = createClient({ baseUrl: "http://localhost:3000", apiKey: process.env.API_KEY });
 *     for await (const showtime of client.showtimes({ cinemaId: "gb-lon-odeon-leicester-sq" })) { … }
 */
import { ApiError, networkError, toApiError } from "./errors.js";
import { authorizationOf, baseOf, marketPrefixOf } from "./options.js";
import type {
  Attribute,
  ChangesFeed,
  ChangesPage,
  ChangesParams,
  Cinema,
  CinemaFilters,
  Embeddable,
  Film,
  FilmFilters,
  ListParams,
  MarketList,
  NearFilter,
  Page,
  PlacePage,
  PlaceParams,
  Result,
  SearchPage,
  ServedCinema,
  ServedFilm,
  ServedShowtime,
  ShowtimeFilters,
} from "./types.js";

export { ApiError, type ClientErrorCode, type ErrorKind } from "./errors.js";
export type * from "./types.js";

export interface ClientOptions {
  /** Where the API is served: e.g. https://listings.example.com (a trailing /v1 is accepted too). */
  baseUrl: string;
  /**
   * The market to ask, in a deployment with markets: its id, as `listMarkets()` gives it (`gb` asks
   * https://listings.example.com/gb/v1/...). Absent: /v1, the deployment's only or default market.
   */
  market?: string;
  /**
   * The key issued to your organization. `process.env.API_KEY` may be passed as it is: a missing or
   * empty key throws a TypeError here, before any request.
   */
  apiKey: string | undefined;
  /** A fetch implementation (tests, proxies); the global fetch by default. */
  fetch?: typeof globalThis.fetch;
  /**
   * How many times an iterator retries a page that failed transiently (ApiError.transient: 429,
   * 502–504, a connection lost after the request was sent), waiting Retry-After when given, else
   * 1 s, 2 s, 4 s… (at most 30 s); default 5. Then it throws, the ApiError carrying the cursor to
   * resume from. A failure to connect (a closed port, an unknown host) is thrown at once.
   */
  maxRetries?: number;
  /** How an iterator waits before a retry (tests pass a fake clock); setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
}

/** Iterator parameters: the filters, the page size, and optionally a cursor to resume from. */
type IterateParams<F> = F & ListParams;

/** Query values: a list is sent comma-separated, each item percent-encoded (an item's own comma becomes %2C). */
type Query = Record<string, string | number | readonly string[] | undefined>;

export interface Client {
  listShowtimes(params?: ShowtimeFilters & ListParams): Promise<Page<ServedShowtime>>;
  getShowtime(showtimeId: string, params?: { include?: Embeddable[] }): Promise<Result<ServedShowtime>>;
  listCinemas(params?: CinemaFilters & ListParams): Promise<SearchPage<ServedCinema>>;
  getCinema(cinemaId: string): Promise<Result<Cinema>>;
  /** Films: all of them, or those showing where and when the filters say (most showtimes first), or by name. */
  listFilms(params?: FilmFilters & ListParams): Promise<SearchPage<ServedFilm>>;
  getFilm(filmId: string): Promise<Result<Film>>;
  listAttributes(params?: ListParams): Promise<Page<Attribute>>;
  /**
   * Every showtime matching the filters, page after page (`limit` sets the page size; `cursor`
   * resumes where an earlier iteration stopped). Waits out 429s and 503s (see maxRetries).
   */
  showtimes(params?: IterateParams<ShowtimeFilters>): AsyncIterableIterator<ServedShowtime>;
  cinemas(params?: IterateParams<CinemaFilters>): AsyncIterableIterator<ServedCinema>;
  films(params?: IterateParams<FilmFilters>): AsyncIterableIterator<ServedFilm>;
  attributes(params?: ListParams): AsyncIterableIterator<Attribute>;
  listChanges(params?: ChangesParams): Promise<ChangesPage>;
  /**
   * Every market the deployment serves (whatever `market` is set to), what each holds and whether
   * your key may use it; a deployment without markets lists one, its id null.
   */
  listMarkets(): Promise<MarketList>;
  /** Places by name, each with the coordinates `near` takes and how many cinemas lie within 25 km. */
  listPlaces(params: PlaceParams): Promise<PlacePage>;
  /**
   * Keeps a mirror in sync (decision: changes feed): yields the feed's pages in order (apply each,
   * then drop the showtimes that start before its `dropBefore`); once the last is applied, the
   * token to store for next time is the feed's `syncToken` (and `next()`'s value when done).
   * Without `since`, a full copy. Waits out transient failures as the other iterators do; when
   * the data changes while it pages, starts again from `since` (applying a change twice is
   * harmless). A token the service no longer answers throws an ApiError whose `syncTokenExpired`
   * is true: start a full copy.
   */
  changes(params?: Omit<ChangesParams, "cursor">): ChangesFeed;
}

function toQueryString(query: Query = {}): string {
  const parts: string[] = [];
  // Absent values are left out: the API answers an empty parameter with a 400.
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const text =
      typeof value === "object" ? value.map(encodeURIComponent).join(",") : encodeURIComponent(String(value));
    parts.push(`${encodeURIComponent(name)}=${text}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

/** Plain decimal degrees with at most 7 decimals, as the API takes them (never exponent notation). */
function degrees(value: number): string {
  return value.toFixed(7).replace(/\.?0+$/, "");
}

/** The filters as query values: `near` becomes near=LAT,LON and radiusKm. */
function queryOf(params: (ShowtimeFilters & CinemaFilters & FilmFilters & ListParams) | undefined): Query {
  const { near, ...rest } = params ?? {};
  return { ...rest, ...nearQuery(near) };
}

function nearQuery(near: NearFilter | undefined): Query {
  if (!near) return {};
  return {
    near: `${degrees(near.latitude)},${degrees(near.longitude)}`,
    radiusKm: near.radiusKm === undefined ? undefined : degrees(near.radiusKm),
  };
}

/** Retry-After when the server gave one, else 1 s, 2 s, 4 s… up to 30 s. */
function retryDelayMs(error: ApiError, attempt: number): number {
  if (error.retryAfter !== undefined) return 1000 * Math.max(1, error.retryAfter);
  return Math.min(30_000, 1000 * 2 ** attempt);
}

export function createClient(options: ClientOptions): Client {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const root = baseOf(options.baseUrl);
  const base = `${root}${marketPrefixOf(options.market)}`;
  const authorization = authorizationOf(options.apiKey);

  /** The answer's status, headers and text; a failure before the whole body arrived is a network ApiError. */
  async function send(url: string): Promise<{ response: Response; text: string }> {
    let response: Response | undefined;
    try {
      response = await fetchImpl(url, { headers: { authorization, accept: "application/json" } });
      return { response, text: await response.text() };
    } catch (error) {
      throw networkError("GET", url, error, response?.status);
    }
  }

  /** A GET of `path` below the market's base (or, `atRoot`, below the deployment's, for /markets). */
  async function get<T>(path: string, query?: Query, atRoot = false): Promise<T> {
    const { response, text } = await send(`${atRoot ? root : base}${path}${toQueryString(query)}`);
    if (response.status !== 200) throw toApiError(response.status, response.headers, text);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(
        response.status,
        "invalid_response",
        "HTTP 200 with a body that is not JSON",
        response.headers.get("x-request-id") ?? undefined,
      );
    }
  }

  const maxRetries = options.maxRetries ?? 5;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  /** One page, retried while it fails transiently (maxRetries); a failure carries the page's cursor. */
  async function pageAt<T>(path: string, query: Query, cursor: string | undefined): Promise<Page<T>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await get<Page<T>>(path, { ...query, cursor });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (!error.transient || attempt >= maxRetries) {
          error.cursor = cursor;
          throw error;
        }
        await sleep(retryDelayMs(error, attempt));
      }
    }
  }

  /** Follows nextCursor until the last page; the filters go with every request, as cursors require. */
  async function* every<T>(path: string, query: Query = {}): AsyncIterableIterator<T> {
    const { cursor: start, ...filters } = query;
    let cursor = typeof start === "string" ? start : undefined;
    do {
      const page: Page<T> = await pageAt<T>(path, filters, cursor);
      yield* page.data;
      cursor = page.pagination.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** How many times `changes()` starts again when the data changes under it before it gives up. */
  const MAX_FEED_RESTARTS = 3;

  async function* changePages(params: Omit<ChangesParams, "cursor">): AsyncGenerator<ChangesPage, string> {
    for (let restarts = 0; ; restarts++) {
      let cursor: string | undefined;
      try {
        for (;;) {
          const page = (await pageAt<unknown>("/v1/changes", { ...params }, cursor)) as unknown as ChangesPage;
          yield page;
          if (page.syncToken !== null) return page.syncToken;
          cursor = page.pagination.nextCursor ?? undefined;
        }
      } catch (error) {
        const changedUnder =
          error instanceof ApiError && error.status === 410 && error.details?.reason === "sync_page_expired";
        if (!changedUnder || restarts >= MAX_FEED_RESTARTS) throw error;
      }
    }
  }

  /** The pages, and the token on the feed once the loop asks past the last page (so after applying it). */
  function changes(params: Omit<ChangesParams, "cursor"> = {}): ChangesFeed {
    let syncToken: string | undefined;
    async function* feed(): AsyncGenerator<ChangesPage, string> {
      syncToken = yield* changePages(params);
      return syncToken;
    }
    return Object.defineProperty(feed(), "syncToken", { get: () => syncToken, enumerable: true }) as ChangesFeed;
  }

  function one(resource: string, id: string): string {
    // URL parsers (fetch, browsers, curl) remove "." and ".." path segments, even percent-encoded
    // ones, so such an id would silently reach another URL: refuse it instead.
    if (id === "." || id === "..") {
      throw new RangeError(
        `the id ${JSON.stringify(id)} cannot be sent in a URL path (it is a dot segment); ` +
          "find the record through its list instead",
      );
    }
    return `/v1/${resource}/${encodeURIComponent(id)}`;
  }

  return {
    listShowtimes: (params) => get("/v1/showtimes", queryOf(params)),
    getShowtime: async (showtimeId, params) => get(one("showtimes", showtimeId), { include: params?.include }),
    listCinemas: (params) => get("/v1/cinemas", queryOf(params)),
    getCinema: async (cinemaId) => get(one("cinemas", cinemaId)),
    listFilms: (params) => get("/v1/films", queryOf(params)),
    getFilm: async (filmId) => get(one("films", filmId)),
    listAttributes: (params) => get("/v1/attributes", { ...params }),
    showtimes: (params) => every("/v1/showtimes", queryOf(params)),
    cinemas: (params) => every("/v1/cinemas", queryOf(params)),
    films: (params) => every("/v1/films", queryOf(params)),
    attributes: (params) => every("/v1/attributes", { ...params }),
    listChanges: (params) => get("/v1/changes", { ...params }),
    changes,
    listMarkets: () => get("/markets", undefined, true),
    listPlaces: (params) => get("/v1/places", { ...params }),
  };
}
