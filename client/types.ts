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
  bookingUrl?: string;
  attributeIds: string[];
  screenName?: string;
  provenance: Provenance;
}

export interface Location {
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  locality: string;
  postcode: string;
  address?: string;
  latitude?: number;
  longitude?: number;
}

export interface Cinema {
  id: string;
  chainId?: string;
  name: string;
  location: Location;
  provenance: Provenance;
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

export interface ShowtimeFilters {
  cinemaId?: string;
  filmId?: string;
  /** Exclusive: only showtimes starting strictly after this instant. */
  startsAfter?: DateTime;
}
