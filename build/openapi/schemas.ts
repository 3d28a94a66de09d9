/**
 * The response shapes of the API as zod schemas, built from the record schemas that validate the
 * data, and their JSON Schema form for the OpenAPI document (zod's own z.toJSONSchema).
 */
import { z } from "zod";
import { DATE_TIME_PATTERN } from "../../api/_core/format/primitives/date-time-patterns.js";
import { ERROR_CODES } from "../../api/_core/respond/errors.js";
import { MAX_CHANGES_LIMIT } from "../../api/_core/endpoints/parameters/changes.js";
import { MAX_LIMIT } from "../../api/_core/endpoints/parse-request.js";
import { MAX_TOKEN_LENGTH } from "../../api/_core/tokens/sync-token.js";
import { EXAMPLES } from "./examples.js";
import { showtimeRecordSchema } from "./showtime-record.js";
import { COUNTRY_CODE_PATTERN, MARKET_BOUNDS, MARKET_ID_PATTERN } from "../../api/_core/format/layout/market-rules.js";
import { PLACE_KINDS, PLACES_ATTRIBUTION } from "../../api/_core/format/layout/places.js";
import {
  attributeSchema,
  calendarDate,
  cinemaSchema,
  dateTime,
  filmSchema,
  locationSchema,
  provenanceSchema,
  showtimeSchema,
  text,
} from "../validate/schemas.js";

/** The spec's date-time as a pattern (date-time-patterns.ts), which the DateTime component carries. */
export { DATE_TIME_PATTERN };
/** The Showtime component: a showtime record as served, with its end (showtime-record.ts). */
export { showtimeRecordSchema };

const DATE_TIME_DESCRIPTION =
  "A date-time as the spec defines it: a calendar-valid date (leap days only in leap years), `T`, " +
  "`hh:mm` with optional `:ss` and optional fractional seconds, then a mandatory zone `Z` or `±hh:mm`. " +
  "RFC 3339 except that seconds are optional.";

export const freshnessSchema = z.strictObject({
  observedAt: dateTime,
  sourceUpdatedAt: dateTime.optional(),
});

export const paginationSchema = z.strictObject({
  nextCursor: z.string().min(1).max(2048).nullable(),
  hasMore: z.boolean(),
});

export const errorCodeSchema = z.enum(ERROR_CODES);

export const errorBodySchema = z.strictObject({
  error: z.strictObject({
    code: errorCodeSchema,
    message: text(1, 300),
    requestId: text(1, 160).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

function listOf<T extends z.ZodType>(record: T) {
  return z.strictObject({
    data: z.array(record).max(MAX_LIMIT),
    pagination: paginationSchema,
    freshness: freshnessSchema,
  });
}

/** Said by a page of films or cinemas listing near spellings of `q` (decision: name search). */
export const nameMatchSchema = z.literal("near");

/** A page of a list that takes `q`: a plain page, with `nameMatch` when it lists near spellings. */
function searchListOf<T extends z.ZodType>(record: T) {
  return listOf(record).extend({ nameMatch: nameMatchSchema.optional() });
}

function oneOf<T extends z.ZodType>(record: T) {
  return z.strictObject({ data: record, freshness: freshnessSchema });
}

/**
 * A showtime as lists and its get-one serve it: near a point with its cinema's distance, with its film and cinema
 * when `include` asks.
 */
export const servedShowtimeSchema = showtimeRecordSchema.extend({
  distanceKm: z.number().min(0).optional(),
  film: filmSchema.optional(),
  cinema: cinemaSchema.optional(),
});
/** A cinema as its list serves it: with `distanceKm` near a point. */
/** What a film or cinema listed by showtime filters has of them (decision: discovery); films count cinemas too. */
export const matchingShowtimesSchema = z.strictObject({
  count: z.number().int().min(1),
  cinemaCount: z.number().int().min(1).optional(),
  firstStartsAt: dateTime,
});

export const servedCinemaSchema = cinemaSchema.extend({
  distanceKm: z.number().min(0).optional(),
  matchingShowtimes: matchingShowtimesSchema.optional(),
});
export const servedFilmSchema = filmSchema.extend({ matchingShowtimes: matchingShowtimesSchema.optional() });

export const showtimePageSchema = listOf(servedShowtimeSchema);
export const cinemaPageSchema = searchListOf(servedCinemaSchema);
export const filmPageSchema = searchListOf(servedFilmSchema);
export const attributePageSchema = listOf(attributeSchema);
export const cinemaResultSchema = oneOf(cinemaSchema);
export const filmResultSchema = oneOf(filmSchema);
export const showtimeResultSchema = oneOf(servedShowtimeSchema);

const upsert = <T extends string, R extends z.ZodType>(type: T, record: R) =>
  z.strictObject({ op: z.literal("upsert"), type: z.literal(type), id: text(1, 160), record });

/** One change of the feed (decision: changes feed): a record as its get-one serves it, or one that is gone. */
export const changeSchema = z.union([
  upsert("cinema", cinemaSchema),
  upsert("film", filmSchema),
  upsert("attribute", attributeSchema),
  upsert("showtime", showtimeRecordSchema),
  z.strictObject({ op: z.literal("delete"), type: z.enum(["cinema", "film", "attribute"]), id: text(1, 160) }),
  z.strictObject({ op: z.literal("delete"), type: z.literal("showtime"), id: text(1, 160), cinemaId: text(1, 160) }),
]);

export const changesPageSchema = z.strictObject({
  data: z.array(changeSchema).max(MAX_CHANGES_LIMIT),
  pagination: paginationSchema,
  syncToken: z.string().min(1).max(MAX_TOKEN_LENGTH).nullable(),
  dropBefore: dateTime.nullable(),
  freshness: freshnessSchema,
});

const count = z.number().int().min(0);

/** A place by name (decision: places), as `GET /v1/places` lists it (layout/places.ts). */
export const placeSchema = z.strictObject({
  name: text(1, 200),
  kind: z.enum(PLACE_KINDS),
  region: text(1, 200).optional(),
  countryCode: z.string().regex(COUNTRY_CODE_PATTERN),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  cinemasWithin25Km: count,
});

export const placePageSchema = z.strictObject({
  data: z.array(placeSchema).max(MAX_LIMIT),
  pagination: paginationSchema,
  nameMatch: nameMatchSchema.optional(),
  attribution: z.literal(PLACES_ATTRIBUTION),
  freshness: freshnessSchema,
});

/** One market as `GET /markets` lists it (decision: markets); without markets, the one market has no id. */
export const marketSchema = z.strictObject({
  id: z.string().regex(MARKET_ID_PATTERN).nullable(),
  name: text(MARKET_BOUNDS.name[0], MARKET_BOUNDS.name[1]).nullable(),
  countries: z.array(z.string().regex(COUNTRY_CODE_PATTERN)).max(MARKET_BOUNDS.countries[1]),
  basePath: z.string().regex(/^(\/[a-z0-9-]{2,32})?\/v1$/),
  default: z.boolean(),
  entitled: z.boolean(),
  counts: z.strictObject({ cinemas: count, films: count, showtimes: count }).nullable(),
  firstDate: calendarDate.nullable(),
  lastDate: calendarDate.nullable(),
  freshness: freshnessSchema.nullable(),
});

export const marketListSchema = z.strictObject({
  data: z.array(marketSchema).min(1).max(MARKET_BOUNDS.markets[1]),
  freshness: freshnessSchema,
});

/** Named components: each becomes `#/components/schemas/<id>` and is referenced, not repeated. */
const COMPONENTS: [z.ZodType, string, string][] = [
  [dateTime, "DateTime", DATE_TIME_DESCRIPTION],
  [provenanceSchema, "Provenance", "Where and when a record was observed (spec 2.1)."],
  [
    showtimeRecordSchema,
    "Showtime",
    "One screening of a film at a cinema (spec 2.2). `endsAt`, ours, is `startsAt` plus the film's " +
      "`durationMinutes`, absent when the film has none: when the film ends if it starts on time (trailers " +
      "and advertising before it are not known). Written as `startsAt` is (its seconds and fraction; `Z` " +
      "when it is), in its cinema's zone's offset at the end when `startsAt` is in that zone's offset at the " +
      "start (a showing across a change of summer time), else in `startsAt`'s offset.",
  ],
  [locationSchema, "Location", "Where a cinema is. `countryCode` is an ISO 3166-1 alpha-2 code."],
  [cinemaSchema, "Cinema", "A cinema (spec 2.3)."],
  [filmSchema, "Film", "A film (spec 2.4). `durationMinutes` is a whole number from 1 to 1000."],
  [
    attributeSchema,
    "Attribute",
    "A showtime attribute (spec 2.5): accessibility, event, format or language. No provenance.",
  ],
  [
    freshnessSchema,
    "Freshness",
    "How fresh the data in this response is. With provenance records in the response: the earliest " +
      "`provenance.observedAt` among them and the latest `provenance.sourceUpdatedAt` (absent when none has one); " +
      "a get-one carries its record's own values. Attributes and empty pages carry the same computed over the " +
      "whole snapshot. Times are shown as written in the source.",
  ],
  [
    paginationSchema,
    "Pagination",
    "`nextCursor` is a non-empty, opaque, URL-safe string when `hasMore` is true and `null` when it is false. " +
      "Pass it back unchanged in `cursor`, with the same filters.",
  ],
  [
    servedShowtimeSchema,
    "ServedShowtime",
    "A showtime as served: listed near a point, with its cinema's `distanceKm` (rounded to 3 decimals); with " +
      "`film` and/or `cinema` (their full records) when `include` asks for them. `endsAt` (see Showtime) is " +
      "when the film ends if it starts on time: `startsAt` plus its `durationMinutes`, without the trailers " +
      "and advertising before it; absent when the film has no running time.",
  ],
  [
    matchingShowtimesSchema,
    "MatchingShowtimes",
    "What a film or cinema listed by showtime filters has of them: how many of its showtimes match every " +
      "showtime filter, at how many cinemas (films only), and the first of them in list order, its `startsAt` " +
      "as written.",
  ],
  [
    servedCinemaSchema,
    "ServedCinema",
    "A cinema as listed: with `distanceKm` (rounded to 3 decimals) near a point, and `matchingShowtimes` when " +
      "listed by showtime filters.",
  ],
  [servedFilmSchema, "ServedFilm", "A film as listed: with `matchingShowtimes` when listed by showtime filters."],
  [
    nameMatchSchema,
    "NameMatch",
    "`near`: `q` found no name whose words start as its words are typed, and the page lists near spellings " +
      "instead (a word within 1 edit up to 5 letters, 2 beyond), fewest edits first. Absent otherwise.",
  ],
  [showtimePageSchema, "ShowtimePage", "A page of showtimes."],
  [cinemaPageSchema, "CinemaPage", "A page of cinemas; `nameMatch` when `q` found near spellings only."],
  [filmPageSchema, "FilmPage", "A page of films; `nameMatch` when `q` found near spellings only."],
  [attributePageSchema, "AttributePage", "A page of showtime attributes."],
  [cinemaResultSchema, "CinemaResult", "One cinema and its freshness."],
  [filmResultSchema, "FilmResult", "One film and its freshness."],
  [showtimeResultSchema, "ShowtimeResult", "One showtime and its freshness."],
  [
    changeSchema,
    "Change",
    "A change of the feed: `upsert` carries the record exactly as its get-one serves it; `delete` names the " +
      "record gone (a showtime's also its `cinemaId`). Applying a change twice is harmless.",
  ],
  [
    changesPageSchema,
    "ChangesPage",
    "A page of the changes feed. `syncToken` is given on the last page only: store it after applying that " +
      "page and pass it as `since` next time. A mirror drops every showtime that starts before `dropBefore`.",
  ],
  [
    marketSchema,
    "Market",
    "A market the deployment serves: its id (the first segment of its base address), name and countries, " +
      "`basePath`, where its API is (`/gb/v1`; its MCP endpoint is `/gb/mcp`), whether `/v1` serves it too " +
      "(`default`) and whether the calling key may use it (`entitled`: a 403 otherwise), and what its data " +
      "holds: counts, the first and last local date with a showtime (`date` finds showtimes on them; null " +
      "when it has none) and its freshness. `counts`, the dates and `freshness` are null while a server " +
      "holding every market cannot read the market's data (its requests answer 503); on Vercel, where no " +
      "function holds every market, they are the figures the build wrote. A deployment without markets " +
      "lists one market whose " +
      "`id` and `name` are null, at `/v1`, with its cinemas' countries.",
  ],
  [
    marketListSchema,
    "MarketList",
    "Every market the deployment serves, in its own order (at most 100, never paged), and the freshness " +
      "over them all.",
  ],
  [
    placeSchema,
    "Place",
    "A place to search near (decision: places): a GeoNames town (`kind` `town`, with its first-level " +
      "`region` when GeoNames names one), or a locality or postcode district of the snapshot's cinemas, at " +
      "the mean position of its cinemas. `cinemasWithin25Km` counts the snapshot's cinemas within 25 km of " +
      "`latitude`, `longitude`: what `near` with them lists at the default `radiusKm`.",
  ],
  [
    placePageSchema,
    "PlacePage",
    "A page of places, with the attribution GeoNames' licence (CC BY 4.0) asks an application showing them to " +
      "pass on. Its freshness is the snapshot's.",
  ],
  [
    errorCodeSchema,
    "ErrorCode",
    "The spec's error codes. Pairs: 400/405 `bad_request`, 401 `unauthorized`, 403 `entitlement_required`, " +
      "404 `not_found`, 410 `not_found` (a sync token too old), 429 `rate_limited`, 500 `internal_error`, " +
      "503 `database_unavailable`. " +
      "`forbidden` is reserved by the spec and never sent by v1.",
  ],
  [
    errorBodySchema,
    "Error",
    "The body of every non-200 response (spec 7). `requestId` equals the `X-Request-Id` header.",
  ],
];

type JsonSchema = Record<string, unknown>;

const NAMED = new Map<z.ZodType, { id: string; description: string }>(
  COMPONENTS.map(([schema, id, description]) => [schema, { id, description }]),
);

/** Adds descriptions and examples, and adjusts zod's output where checks say more than JSON Schema can. */
function refine(schema: z.ZodType, json: JsonSchema): void {
  const named = NAMED.get(schema);
  if (named) {
    json.description = named.description;
    if (EXAMPLES[named.id] !== undefined) json.examples = [EXAMPLES[named.id]];
  }
  if (schema === dateTime) {
    // JSON Schema's `date-time` requires seconds, so standard validators would refuse `2026-11-24T18:00Z`: the
    // spec's form is a pattern instead, RFC 3339 with optional seconds, the calendar included.
    delete json.format;
    json.pattern = DATE_TIME_PATTERN;
  }
  if (schema === showtimeSchema.shape.attributeIds) json.uniqueItems = true;
  if (json.format === "uri") json.pattern = "^[Hh][Tt][Tt][Pp][Ss]?://";
}

/** The JSON Schemas (2020-12, as OpenAPI 3.1 uses) of every named component. */
export function renderComponentSchemas(): Record<string, JsonSchema> {
  // Ids only: descriptions are set in refine, as a registry's own fields would hide the global .meta().
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of COMPONENTS) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "output",
    uri: (id) => `#/components/schemas/${id}`,
    override: (ctx) => refine(ctx.zodSchema as unknown as z.ZodType, ctx.jsonSchema as JsonSchema),
  });
  const components: Record<string, JsonSchema> = {};
  for (const [, id] of COMPONENTS) {
    // Each component is embedded in the OpenAPI document, not a standalone schema resource.
    const { $schema: _schema, $id: _id, ...rest } = schemas[id] as JsonSchema;
    components[id] = rest;
  }
  return components;
}
