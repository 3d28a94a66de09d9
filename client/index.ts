/**
 * A typed client of the Cinema Listings API for TypeScript users: one method per operation of
 * the OpenAPI document, async iterators over every page, and ApiError for every failure.
 *
 *     const client = createClient({ baseUrl: "http://localhost:3000", apiKey: process.env.API_KEY! });
 *     for await (const showtime of client.showtimes({ cinemaId: "gb-lon-odeon-leicester-sq" })) { … }
 */
import { ApiError, toApiError } from "./errors.js";
import type { Attribute, Cinema, Film, ListParams, Page, Result, Showtime, ShowtimeFilters } from "./types.js";

export { ApiError, type ClientErrorCode } from "./errors.js";
export type * from "./types.js";

export interface ClientOptions {
  /** Where the API is served, without /v1: e.g. https://listings.example.com. */
  baseUrl: string;
  apiKey: string;
  /** A fetch implementation (tests, proxies, retries); the global fetch by default. */
  fetch?: typeof globalThis.fetch;
}

type Query = Record<string, string | number | undefined>;

export interface Client {
  listShowtimes(params?: ShowtimeFilters & ListParams): Promise<Page<Showtime>>;
  listCinemas(params?: ListParams): Promise<Page<Cinema>>;
  getCinema(cinemaId: string): Promise<Result<Cinema>>;
  listFilms(params?: ListParams): Promise<Page<Film>>;
  getFilm(filmId: string): Promise<Result<Film>>;
  listAttributes(params?: ListParams): Promise<Page<Attribute>>;
  /** Every showtime matching the filters, page after page (`limit` sets the page size). */
  showtimes(params?: ShowtimeFilters & Omit<ListParams, "cursor">): AsyncIterableIterator<Showtime>;
  cinemas(params?: Omit<ListParams, "cursor">): AsyncIterableIterator<Cinema>;
  films(params?: Omit<ListParams, "cursor">): AsyncIterableIterator<Film>;
  attributes(params?: Omit<ListParams, "cursor">): AsyncIterableIterator<Attribute>;
}

function toQueryString(query: Query = {}): string {
  const search = new URLSearchParams();
  // Absent values are left out: the API answers an empty parameter with a 400.
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function createClient(options: ClientOptions): Client {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, "");

  async function get<T>(path: string, query?: Query): Promise<T> {
    const response = await fetchImpl(`${base}${path}${toQueryString(query)}`, {
      headers: { authorization: `Bearer ${options.apiKey}`, accept: "application/json" },
    });
    const text = await response.text();
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

  /** Follows nextCursor until the last page; the filters go with every request, as cursors require. */
  async function* every<T>(path: string, query: Query = {}): AsyncIterableIterator<T> {
    let cursor: string | undefined;
    do {
      const page: Page<T> = await get<Page<T>>(path, { ...query, cursor });
      yield* page.data;
      cursor = page.pagination.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  function one(resource: string, id: string): string {
    // URL parsers (fetch, browsers, curl) remove "." and ".." path segments, even percent-encoded
    // ones, so such an id would silently reach another URL: refuse it instead.
    if (id === "." || id === "..") {
      throw new RangeError(
        `the id ${JSON.stringify(id)} cannot be sent in a URL path (it is a dot segment); find the record through its list instead`,
      );
    }
    return `/v1/${resource}/${encodeURIComponent(id)}`;
  }

  return {
    listShowtimes: (params) => get("/v1/showtimes", { ...params }),
    listCinemas: (params) => get("/v1/cinemas", { ...params }),
    getCinema: async (cinemaId) => get(one("cinemas", cinemaId)),
    listFilms: (params) => get("/v1/films", { ...params }),
    getFilm: async (filmId) => get(one("films", filmId)),
    listAttributes: (params) => get("/v1/attributes", { ...params }),
    showtimes: (params) => every("/v1/showtimes", { ...params }),
    cinemas: (params) => every("/v1/cinemas", { ...params }),
    films: (params) => every("/v1/films", { ...params }),
    attributes: (params) => every("/v1/attributes", { ...params }),
  };
}
