/**
 * The forms query values must have, each written once for the parser that checks it and the OpenAPI
 * document that states it (decision: the OpenAPI document): a fuzzer drawing values from a
 * parameter's `pattern` draws only values the API takes, and a validator refuses what it refuses.
 * Ranges are in the pattern too, so no numeric check is left for a schema to miss. Written with
 * `[0-9]`, never `\d` (any Unicode digit to some languages' engines), and no lookaround, which not
 * every engine has.
 */

/** 1 to 7 decimals. */
const FRACTION = "(?:\\.[0-9]{1,7})?";
/** A bound's own decimals: zeros only (`90.0000000` is 90). */
const ZERO_FRACTION = "(?:\\.0{1,7})?";

/**
 * A number in plain decimal notation with 1 to 3 integer digits (leading zeros allowed, as the
 * parser always took them) and at most 7 decimals, up to and including a bound: `below` matches
 * the whole parts under the bound, `bound` the bound's own whole part (which takes zero decimals only).
 */
function upTo(below: string, bound: string): string {
  return `(?:(?:${below})${FRACTION}|${bound}${ZERO_FRACTION})`;
}

/** Latitude −90..90: whole parts 0..89 (`0`, `07`, `007`, `89`, `089`), or 90 exactly. */
const LATITUDE = `-?${upTo("0{0,2}[0-9]|0?[1-8][0-9]", "0?90")}`;
/** Longitude −180..180: whole parts 0..179, or 180 exactly. */
const LONGITUDE = `-?${upTo("0{0,2}[0-9]|0?[1-9][0-9]|1[0-7][0-9]", "180")}`;

/** 1 to 7 decimals, not all zero: some zeros, a non-zero digit, then any digits up to 7 in all. */
const NON_ZERO_FRACTION = `\\.(?:${Array.from(
  { length: 7 },
  (_, zeros) => `${"0".repeat(zeros)}[1-9]${zeros < 6 ? `[0-9]{0,${6 - zeros}}` : ""}`,
).join("|")})`;

/** Radii 0 < r ≤ 500: a zero whole part with a non-zero fraction, or whole parts 1..499, or 500 exactly. */
const RADIUS = `(?:0{1,3}${NON_ZERO_FRACTION}|${upTo("0{0,2}[1-9]|0?[1-9][0-9]|[1-4][0-9]{2}", "500")})`;

/** `near`: `LATITUDE,LONGITUDE` in decimal degrees. */
export const NEAR_PATTERN = `^${LATITUDE},${LONGITUDE}$`;

/** `radiusKm`: greater than 0 and at most 500 km. */
export const RADIUS_PATTERN = `^${RADIUS}$`;

/** `countryCode`: two upper-case letters (ISO 3166-1 alpha-2, as cinemas' location.countryCode). */
export const COUNTRY_CODE_PATTERN = "^[A-Z]{2}$";

/** `dayStartsAt`: HH:MM from 00:00 to 05:59 (decision: local dates). */
export const DAY_STARTS_AT_PATTERN = "^0[0-5]:[0-5][0-9]$";
