/**
 * The spec's date and date-time forms (spec 2) as regular expressions that accept exactly what
 * `checkDate` and `checkDateTime` accept, calendar included, for the OpenAPI document: a client or
 * fuzzer that draws values from its `pattern` draws only valid ones, and a validator refuses what the
 * API refuses. Written with `[0-9]`, never `\d`, which some languages' engines read as any Unicode digit.
 */

/** Months 01..12 with the days every year has (February to the 28th). */
const MONTH_DAY = "(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)";
/** Leap years of the proleptic Gregorian calendar: by 4 and not by 100, or by 400 (0000 is one). */
const LEAP_YEAR = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[048]|[2468][048]|[13579][26])00)";
/** A calendar date YYYY-MM-DD, 29 February in leap years only. */
const DATE = `(?:[0-9]{4}-${MONTH_DAY}|${LEAP_YEAR}-02-29)`;
/** hh:mm, then optional :ss and optional fractional digits (no leap second: spec 2 allows 00..59). */
const TIME = "(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]+)?)?";
/** The zone, mandatory: Z or ±hh:mm. */
const ZONE = "(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])";

/** `checkDate`'s form as a whole-string pattern. */
export const DATE_PATTERN = `^${DATE}$`;

/** `checkDateTime`'s form as a whole-string pattern: RFC 3339 with optional seconds. */
export const DATE_TIME_PATTERN = `^${DATE}T${TIME}${ZONE}$`;
