/**
 * Examples for the reference, taken from the sample data in data/ so they read like real answers.
 * A test validates each one against the schema it illustrates.
 */
import { PLACES_ATTRIBUTION } from "../../api/_core/format/layout/places.js";

const provenance = {
  observedAt: "2026-11-22T06:00:04Z",
  sourceUpdatedAt: "2026-11-20T13:13:00Z",
  provider: "cineworld-feed",
  externalId: "odeon:7401:5310208",
};

export const SHOWTIME_EXAMPLE = {
  id: "st-gb-lon-odeon-20261124-1315-s2",
  filmId: "film-paper-lanterns",
  cinemaId: "gb-lon-odeon-leicester-sq",
  startsAt: "2026-11-24T13:15:00Z",
  endsAt: "2026-11-24T14:49:00Z",
  bookingUrl: "https://www.odeon.co.uk/cinemas/leicester-square/?performance=5310208",
  attributeIds: ["format-2d", "lang-en"],
  screenName: "Screen 2",
  provenance,
};

export const CINEMA_EXAMPLE = {
  id: "gb-lon-odeon-leicester-sq",
  chainId: "odeon",
  name: "ODEON Luxe Leicester Square",
  location: {
    countryCode: "GB",
    locality: "London",
    postcode: "WC2H 7JY",
    address: "24-26 Leicester Square",
    latitude: 51.5103,
    longitude: -0.1301,
  },
  provenance: { ...provenance, sourceUpdatedAt: "2026-10-02T09:15:00Z", externalId: "odeon:7401" },
};

export const FILM_EXAMPLE = {
  id: "film-midnight-harbour",
  title: "Midnight Harbour",
  durationMinutes: 132,
  certification: "FSK 16",
  posterUrl: "https://bilder.kinoheld-api.example/plakate/midnight-harbour.jpg",
  releaseDate: "2026-11-19",
  provenance: { observedAt: "2026-11-22T06:01:13+01:00", provider: "kinoheld-api", externalId: "kh-film-88377" },
};

export const ATTRIBUTE_EXAMPLE = {
  id: "format-2d",
  kind: "format",
  name: "2D",
  description: "Standard digital 2D projection.",
};

export const FRESHNESS_EXAMPLE = { observedAt: "2026-11-22T06:00:04Z", sourceUpdatedAt: "2026-11-20T13:13:00Z" };

export const PAGINATION_EXAMPLE = {
  nextCursor: "3mX0kQ2b7yWcTnVhWyJbMSwiYjNxS3ZwZ1pTUjFoIiwiMTc2NDA0MTMwMCJdXQ",
  hasMore: true,
};

/**
 * A path parameter's example: the id of the record the reference shows, a record of the demo data
 * in data/ (a test asks the demo for each), so a request sample or a fuzzer reaches a record, not a 404.
 */
export const PATH_EXAMPLES: Record<string, string> = {
  showtimeId: SHOWTIME_EXAMPLE.id,
  cinemaId: CINEMA_EXAMPLE.id,
  filmId: FILM_EXAMPLE.id,
};

export const MARKET_EXAMPLE = {
  id: "gb",
  name: "United Kingdom",
  countries: ["GB"],
  basePath: "/gb/v1",
  default: true,
  entitled: true,
  counts: { cinemas: 180, films: 84, showtimes: 36_512 },
  firstDate: "2026-11-22",
  lastDate: "2026-12-05",
  freshness: FRESHNESS_EXAMPLE,
};

const page = (record: unknown) => ({ data: [record], pagination: PAGINATION_EXAMPLE, freshness: FRESHNESS_EXAMPLE });

/** Example per component id. */
/** A town of the gazetteer, as `GET /v1/places` lists it. */
const PLACE_EXAMPLE = {
  name: "London",
  kind: "town",
  region: "England",
  countryCode: "GB",
  latitude: 51.50853,
  longitude: -0.12574,
  cinemasWithin25Km: 162,
};

export const EXAMPLES: Record<string, unknown> = {
  DateTime: "2026-11-24T18:00Z",
  Provenance: provenance,
  Showtime: SHOWTIME_EXAMPLE,
  Location: CINEMA_EXAMPLE.location,
  Cinema: CINEMA_EXAMPLE,
  Film: FILM_EXAMPLE,
  Attribute: ATTRIBUTE_EXAMPLE,
  Freshness: FRESHNESS_EXAMPLE,
  Pagination: PAGINATION_EXAMPLE,
  ShowtimePage: page(SHOWTIME_EXAMPLE),
  CinemaPage: page(CINEMA_EXAMPLE),
  FilmPage: page(FILM_EXAMPLE),
  AttributePage: { ...page(ATTRIBUTE_EXAMPLE), pagination: { nextCursor: null, hasMore: false } },
  CinemaResult: {
    data: CINEMA_EXAMPLE,
    freshness: { observedAt: provenance.observedAt, sourceUpdatedAt: "2026-10-02T09:15:00Z" },
  },
  FilmResult: { data: FILM_EXAMPLE, freshness: { observedAt: FILM_EXAMPLE.provenance.observedAt } },
  Place: PLACE_EXAMPLE,
  PlacePage: {
    data: [
      PLACE_EXAMPLE,
      { ...PLACE_EXAMPLE, region: "Ontario", countryCode: "CA", latitude: 42.98339, longitude: -81.23304 },
    ],
    pagination: { nextCursor: null, hasMore: false },
    attribution: PLACES_ATTRIBUTION,
    freshness: { observedAt: "2026-11-22T06:01:13+01:00" },
  },
  Market: MARKET_EXAMPLE,
  MarketList: {
    data: [
      MARKET_EXAMPLE,
      {
        ...MARKET_EXAMPLE,
        id: "dach",
        name: "Germany, Austria, Switzerland",
        countries: ["DE", "AT", "CH"],
        basePath: "/dach/v1",
        default: false,
        entitled: false,
        counts: { cinemas: 214, films: 96, showtimes: 41_870 },
        freshness: { observedAt: "2026-11-22T06:01:13+01:00" },
      },
    ],
    freshness: { observedAt: "2026-11-22T06:01:13+01:00", sourceUpdatedAt: "2026-11-20T13:13:00Z" },
  },
};
