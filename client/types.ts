/**
 * The API's shapes for TypeScript users, written out so the client needs nothing but fetch.
 * test/client.test.ts checks at compile time that they equal the zod schemas' inferred types.
 */

/** A date-time as the spec writes it: RFC 3339, seconds optional, zone required. */
export type DateTime = string;

export interface Provenance {
  observedAt: DateTime;
  sourceUpdatedAt?: DateTime;
  provider: string;
  externalId: string;
}

export interface Showtime {
  id: string;
  filmId: string;
  cinemaId: string;
  startsAt: DateTime;
  /**
   * `startsAt` plus the film's running time, written as `startsAt` is (in its cinema's zone's offset then);
   * absent when the film has no durationMinutes. When the film ends if it starts on time: trailers and
   * advertising before it are not known.
   */
  endsAt?: DateTime;
  bookingUrl?: string;
  attributeIds: string[];
  screenName?: string;
  provenance: Provenance;
}

/** A showtime as served: with its film and/or cinema when `include` asks for them. */
export interface ServedShowtime extends Showtime {
  /** Listed near a point: its cinema's distance in km, rounded to 3 decimals. */
  distanceKm?: number;
  film?: Film;
  cinema?: Cinema;
}

export interface Location {
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  locality: string;
  postcode: string;
  address?: string;
  latitude?: number;
  longitude?: number;
  /**
   * The cinema's IANA time zone by its primary name, e.g. "Europe/Berlin": show its showtimes in this zone's
   * wall-clock time.
   */
  timeZone?: string;
}

export interface Cinema {
  id: string;
  chainId?: string;
  name: string;
  location: Location;
  provenance: Provenance;
}

/** What a film (cinema) listed by showtime filters has of them (decision: discovery). */
export interface MatchingShowtimes {
  /** How many of its showtimes match every showtime filter. */
  count: number;
  /** At how many cinemas (films only). */
  cinemaCount?: number;
  /** The first of them, as its startsAt is written (in list order). */
  firstStartsAt: DateTime;
}

/**
 * A cinema as its list serves it: `distanceKm` (rounded to 3 decimals) when listed near a point,
 * `matchingShowtimes` when listed by showtime filters.
 */
export interface ServedCinema extends Cinema {
  distanceKm?: number;
  matchingShowtimes?: MatchingShowtimes;
}

/** A film as its list serves it: `matchingShowtimes` when listed by showtime filters. */
export interface ServedFilm extends Film {
  matchingShowtimes?: MatchingShowtimes;
}

export interface Film {
  id: string;
  title: string;
  durationMinutes?: number;
  certification?: string;
  posterUrl?: string;
  /** YYYY-MM-DD. */
  releaseDate?: string;
  provenance: Provenance;
}

export type AttributeKind = "accessibility" | "event" | "format" | "language";

export interface Attribute {
  id: string;
  kind: AttributeKind;
  name: string;
  description?: string;
}

export interface Freshness {
  observedAt: DateTime;
  sourceUpdatedAt?: DateTime;
}

export interface Pagination {
  /** A string while hasMore is true, null on the last page. */
  nextCursor: string | null;
  hasMore: boolean;
}

/** A list response: one page of records. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
  freshness: Freshness;
}

/**
 * A page of films or cinemas: `nameMatch` is "near" when `q` found no name as typed and the page lists
 * near spellings instead.
 */
export interface SearchPage<T> extends Page<T> {
  nameMatch?: "near";
}

/** A get-one response. */
export interface Result<T> {
  data: T;
  freshness: Freshness;
}

/** The spec's error codes (part 7). */
export type ErrorCode =
  | "bad_request"
  | "database_unavailable"
  | "entitlement_required"
  | "forbidden"
  | "internal_error"
  | "not_found"
  | "rate_limited"
  | "unauthorized";

export interface ListParams {
  /** 1..100; the server's default is 25. */
  limit?: number;
  /** The nextCursor of the previous page. */
  cursor?: string;
}

/** A point and a radius: cinemas within `radiusKm` (default 25, at most 500) of it. */
export interface NearFilter {
  /** Decimal degrees, -90..90; sent with at most 7 decimals. */
  latitude: number;
  /** Decimal degrees, -180..180; sent with at most 7 decimals. */
  longitude: number;
  radiusKm?: number;
}

export type Embeddable = "film" | "cinema";

export interface ShowtimeFilters {
  cinemaId?: string;
  filmId?: string;
  /** Exclusive: only showtimes starting strictly after this instant. */
  startsAfter?: DateTime;
  /** Exclusive: only showtimes starting strictly before this instant. */
  startsBefore?: DateTime;
  /** Only showtimes starting on this calendar date (YYYY-MM-DD) at their cinema, in its time zone. */
  date?: string;
  /**
   * With `date`: when the cinema day starts, "HH:MM" from "00:00" to "05:59" (a 01:00 show then counts for the
   * evening before).
   */
  dayStartsAt?: string;
  /** Only showtimes having all of these attributes (1..32 ids). */
  attributeIds?: string[];
  /** Only showtimes having at least one of these attributes (1..32 ids); with attributeIds, all of those too. */
  anyAttributeIds?: string[];
  /** Only showtimes at cinemas near a point. */
  near?: NearFilter;
  /** Embeds each showtime's film and/or cinema. */
  include?: Embeddable[];
}

/** The filters of /v1/showtimes a film or cinema list takes: it then lists those with a matching showtime. */
export interface ShowingFilters {
  startsAfter?: DateTime;
  startsBefore?: DateTime;
  /** A calendar date (YYYY-MM-DD) at the cinema. */
  date?: string;
  /** With `date`: when the cinema day starts, "HH:MM" from "00:00" to "05:59". */
  dayStartsAt?: string;
  attributeIds?: string[];
  anyAttributeIds?: string[];
}

export interface CinemaFilters extends ShowingFilters {
  /** Cinemas near a point, nearest first, each with distanceKm. */
  near?: NearFilter;
  /** ISO 3166-1 alpha-2, e.g. "DE". */
  countryCode?: string;
  /** Only cinemas of this chain. */
  chainId?: string;
  /** Only cinemas showing this film (with the other showing filters). */
  filmId?: string;
  /** Name search: each word starts a word of the cinema's name or locality (1..100 characters). */
  q?: string;
}

export interface FilmFilters extends ShowingFilters {
  /** Only films showing at this cinema. */
  cinemaId?: string;
  /** Only films showing at cinemas near a point. */
  near?: NearFilter;
  /** Only films showing at cinemas in this country (ISO 3166-1 alpha-2). */
  countryCode?: string;
  /** Name search: each word starts a word of the title (1..100 characters). */
  q?: string;
}

/** A record that changed, as its get-one serves it, or one that is gone (decision: changes feed). */
export type Change =
  | { op: "upsert"; type: "cinema"; id: string; record: Cinema }
  | { op: "upsert"; type: "film"; id: string; record: Film }
  | { op: "upsert"; type: "attribute"; id: string; record: Attribute }
  | { op: "upsert"; type: "showtime"; id: string; record: Showtime }
  | { op: "delete"; type: "cinema" | "film" | "attribute"; id: string }
  | { op: "delete"; type: "showtime"; id: string; cinemaId: string };

/** A page of the changes feed. */
export interface ChangesPage {
  data: Change[];
  pagination: Pagination;
  /** On the last page only: what to pass as `since` next time. */
  syncToken: string | null;
  /** A mirror drops every showtime that starts before this instant (they are left out, not deleted). */
  dropBefore: DateTime | null;
  freshness: Freshness;
}

/**
 * A sync in progress: the feed's pages in order (`for await`), then the token to store, on
 * `syncToken` once the loop has applied the last page (undefined before, and after a loop left
 * early). `next()` also returns the token when done.
 */
export interface ChangesFeed extends AsyncGenerator<ChangesPage, string> {
  readonly syncToken: string | undefined;
}

export interface ChangesParams {
  /** The syncToken of an earlier sync's last page; absent: a full copy. */
  since?: string;
  /** 1..5000 changes per page; the server's default is 1000. */
  limit?: number;
  /** The nextCursor of the previous page (with the same since and limit). */
  cursor?: string;
}

/** A market as `GET /markets` lists it (a deployment without markets lists one, its id null, at /v1). */
export interface Market {
  /** The market's id, the first segment of its base address: `gb` is at /gb/v1 and /gb/mcp. */
  id: string | null;
  name: string | null;
  /** ISO 3166-1 alpha-2 codes of the countries whose cinemas it holds. */
  countries: string[];
  /** Where its API is, from the origin: `/gb/v1` (`/v1` without markets). */
  basePath: string;
  /** Whether /v1 serves it too. */
  default: boolean;
  /** Whether your key may use it now (a 403 `entitlement_required` otherwise). */
  entitled: boolean;
  /** Null, as the dates and freshness, while the market's data cannot be read (its requests answer 503). */
  counts: { cinemas: number; films: number; showtimes: number } | null;
  /** The first and last local date (YYYY-MM-DD) with a showtime; null when it has none. */
  firstDate: string | null;
  lastDate: string | null;
  freshness: Freshness | null;
}

export interface MarketList {
  /** Every market, in the deployment's order (at most 100, never paged). */
  data: Market[];
  freshness: Freshness;
}

/**
 * A place to search near (decision: places): a GeoNames town (CC BY 4.0: pass `attribution` on), or a
 * locality or postcode district of the listings' cinemas.
 */
export interface Place {
  name: string;
  kind: "town" | "locality" | "postcodeDistrict";
  /** The town's first-level region (England, Ontario, Bavaria), when GeoNames names one. */
  region?: string;
  countryCode: string;
  /** What `near` takes: `near: { latitude, longitude }`. */
  latitude: number;
  longitude: number;
  /** The listings' cinemas within 25 km: what `near` at the default radius lists. */
  cinemasWithin25Km: number;
}

/** A page of places, with the attribution GeoNames' licence asks an application showing them to pass on. */
export interface PlacePage extends SearchPage<Place> {
  attribution: string;
}

export interface PlaceParams extends ListParams {
  /** Required: words of the place's name or region (`london`, `springfield illinois`, `WC2H`). */
  q: string;
  /** Only places in this country (ISO 3166-1 alpha-2). */
  countryCode?: string;
}
