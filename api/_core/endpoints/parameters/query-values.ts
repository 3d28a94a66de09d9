/**
 * The values of the query parameters apps use to narrow a list (decision: query parameters):
 * a time window, attributes, a place and radius, a country, embedded records. Each parser takes
 * the value as the query parser decoded it (attributeIds: still encoded, see below) and throws a
 * 400 naming its parameter.
 */
import { wordsOf } from "../../format/layout/name-words.js";
import type { NameQuery } from "../../format/query/name-search.js";
import { badParameter } from "../../respond/errors.js";
import { codePointLength } from "../../respond/text.js";
import { COUNTRY_CODE_PATTERN, NEAR_PATTERN, RADIUS_PATTERN } from "./value-patterns.js";

export const MAX_ATTRIBUTE_FILTER = 32;
export const MAX_RADIUS_KM = 500;
export const DEFAULT_RADIUS_KM = 25;
/** Ids are 1..160 code points (spec §2). */
export const MAX_ID_LENGTH = 160;

/**
 * Plain decimal notation, at most 7 decimals, within range: `52.52,-0.1278`; not `+1`, `1e2`, `.5`,
 * `5.`. The forms are the OpenAPI document's patterns, written once (value-patterns.ts).
 */
const NEAR = new RegExp(NEAR_PATTERN);
const RADIUS = new RegExp(RADIUS_PATTERN);
const COUNTRY_CODE = new RegExp(COUNTRY_CODE_PATTERN);

export interface NearPoint {
  latitude: number;
  longitude: number;
}

export type Embedded = "film" | "cinema";

/** Form-decodes a query component (`+` is a space, then percent-decoding); undefined when malformed. */
export function formDecode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * `attributeIds` (and `anyAttributeIds`, named by `parameter`): 1..32 ids, comma-separated. Split on
 * literal commas before percent-decoding, so an id holding a comma is sent as `%2C`. `raw` is the
 * value as sent (still percent-encoded).
 */
export function parseAttributeIds(raw: string, parameter = "attributeIds"): string[] {
  const items = raw.split(",");
  if (items.length > MAX_ATTRIBUTE_FILTER) {
    throw badParameter(parameter, `must list at most ${MAX_ATTRIBUTE_FILTER} attribute ids, not ${items.length}`);
  }
  const ids: string[] = [];
  for (const item of items) {
    const id = formDecode(item);
    if (id === undefined) throw badParameter(parameter, "is not valid percent-encoding");
    if (id === "") throw badParameter(parameter, "must not have an empty item (ids are separated by single commas)");
    if (codePointLength(id) > MAX_ID_LENGTH) {
      throw badParameter(parameter, `items must be at most ${MAX_ID_LENGTH} characters long`);
    }
    if (ids.includes(id)) throw badParameter(parameter, "must not list an attribute id twice");
    ids.push(id);
  }
  return ids;
}

/** `near=LAT,LON`: decimal degrees, latitude −90..90, longitude −180..180. */
export function parseNear(value: string): NearPoint {
  if (!NEAR.test(value)) {
    throw badParameter(
      "near",
      "must be LATITUDE,LONGITUDE in decimal degrees (latitude -90..90, longitude -180..180, at most 7 " +
        "decimals), such as 52.5200,13.4050",
    );
  }
  const [latitude, longitude] = value.split(",").map(Number) as [number, number];
  return { latitude, longitude };
}

/** `radiusKm`: a number > 0 and ≤ 500 in plain decimal notation. */
export function parseRadiusKm(value: string): number {
  if (!RADIUS.test(value)) {
    throw badParameter(
      "radiusKm",
      `must be a number greater than 0 and at most ${MAX_RADIUS_KM} in plain decimal notation (at most 7 decimals)`,
    );
  }
  return Number(value);
}

/** `countryCode`: two upper-case letters (ISO 3166-1 alpha-2, as cinemas' location.countryCode). */
export function parseCountryCode(value: string): string {
  if (!COUNTRY_CODE.test(value)) throw badParameter("countryCode", "must be two upper-case letters, such as DE");
  return value;
}

/** `include`: a comma-separated subset of film,cinema, each at most once. */
export function parseInclude(value: string): Embedded[] {
  const items = value.split(",");
  const included: Embedded[] = [];
  for (const item of items) {
    if (item !== "film" && item !== "cinema") {
      throw badParameter("include", "must be film, cinema or film,cinema (comma-separated, each at most once)");
    }
    if (included.includes(item)) throw badParameter("include", "must not name film or cinema twice");
    included.push(item);
  }
  return included;
}

/** `q` is 1..100 characters once trimmed (decision: name search). */
export const MAX_QUERY_LENGTH = 100;

/**
 * Unicode whitespace (the White_Space property) at either end: JavaScript's `trim` keeps U+0085
 * (next line), which is whitespace, and drops U+FEFF (a byte-order mark), which is not.
 */
const EDGE_WHITESPACE = /^\p{White_Space}+|\p{White_Space}+$/gu;

/** `q`: words to find names by, trimmed, 1..100 characters with at least one letter or digit. */
export function parseNameQuery(value: string): NameQuery {
  const trimmed = value.replace(EDGE_WHITESPACE, "");
  const length = codePointLength(trimmed);
  if (length < 1 || length > MAX_QUERY_LENGTH)
    throw badParameter("q", `must be 1 to ${MAX_QUERY_LENGTH} characters long once trimmed, not ${length}`);
  const words = wordsOf(trimmed);
  if (words.length === 0) throw badParameter("q", "must hold a letter or a digit to search names by");
  return { words, key: words.join(" ") };
}
