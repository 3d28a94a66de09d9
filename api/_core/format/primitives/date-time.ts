/**
 * The spec's date-time and date forms (spec 2): parsing, calendar checks and a sortable instant key.
 * Shared by the build (validation, ordering) and the request core (startsAfter), so both agree exactly.
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECONDS_PER_DAY = 86_400;
/** Shifts epoch seconds so every year 0000..9999 with any offset is a non-negative 13-digit number. */
const KEY_BIAS = 100_000_000_000;

export type DateCheck = { ok: true; instantKey: string } | { ok: false; reason: string };

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days from 1970-01-01 to a civil date (proleptic Gregorian), Hinnant's algorithm: no Date quirks for years < 100. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * The civil date of a day since 1970-01-01 (proleptic Gregorian; Hinnant's algorithm, daysFromCivil's
 * inverse), packed as `year * 10_000 + month * 100 + day`: read per record, it allocates nothing.
 */
export function civilFromDays(days: number): number {
  const z = days + 719_468; // days since 0000-03-01, when a 400-year era begins
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return year * 10_000 + month * 100 + (doy - Math.floor((153 * mp + 2) / 5) + 1);
}

function checkCalendarDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12) return `month ${String(month).padStart(2, "0")} does not exist`;
  if (day < 1 || day > daysInMonth(year, month)) {
    if (month === 2 && day === 29) return `${year} is not a leap year`;
    return `day ${String(day).padStart(2, "0")} does not exist in month ${String(month).padStart(2, "0")}`;
  }
  return undefined;
}

/** Checks a YYYY-MM-DD calendar date; returns a reason when it is not one. */
export function checkDate(value: string): string | undefined {
  const m = DATE.exec(value);
  if (!m) return "expected YYYY-MM-DD";
  return checkCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** The `count` digits of `value` at `start` as a number; -1 when one is not a digit. */
export function digitsAt(value: string, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Checks a spec date-time and, when valid, returns its instant key: a string whose plain
 * comparison orders instants exactly (offsets applied, every fractional digit kept). Pure: a
 * request's startsAfter is parsed each time (under a microsecond), so no memory is ever kept
 * for what a client sends (decision: caches keyed by client input).
 */
export function checkDateTime(value: string): DateCheck {
  return parseDateTime(value);
}

/** A memo's cost per entry beyond its text and key: the map slot and the result object. */
const MEMO_ENTRY_OVERHEAD = 96;
/** Longer texts are parsed every time: valid feeds write at most milliseconds, ~30 characters. */
const MEMO_MAX_TEXT = 64;

/**
 * Remembers valid date-times by text for the build, whose feeds repeat the same few thousand
 * times millions of times. Bounded in bytes (emptied when full); keeps no invalid text and no
 * long one.
 */
export class DateTimeMemo {
  private readonly results = new Map<string, DateCheck>();
  private held = 0;

  constructor(private readonly maxBytes = 4 * 2 ** 20) {}

  check(value: string): DateCheck {
    const known = this.results.get(value);
    if (known) return known;
    const result = parseDateTime(value);
    if (!result.ok || value.length > MEMO_MAX_TEXT) return result;
    const cost = 2 * (value.length + result.instantKey.length) + MEMO_ENTRY_OVERHEAD;
    if (this.held + cost > this.maxBytes) {
      this.results.clear();
      this.held = 0;
    }
    this.results.set(value, result);
    this.held += cost;
    return result;
  }

  /** Bytes held, as counted against the bound. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.results.size;
  }
}

function parseDateTime(value: string): DateCheck {
  const m = DATE_TIME.exec(value);
  if (!m) return { ok: false, reason: "expected YYYY-MM-DDThh:mm[:ss[.fraction]] followed by Z or ±hh:mm" };
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const dateProblem = checkCalendarDate(year, month, day);
  if (dateProblem) return { ok: false, reason: dateProblem };
  if (hour > 23) return { ok: false, reason: `hour ${m[4]} is out of range 00..23` };
  if (minute > 59) return { ok: false, reason: `minute ${m[5]} is out of range 00..59` };
  if (second > 59) return { ok: false, reason: `second ${m[6]} is out of range 00..59` };
  let offsetMinutes = 0;
  if (m[8] !== "Z") {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return { ok: false, reason: `zone offset ${m[9]}${m[10]}:${m[11]} is out of range` };
    offsetMinutes = (m[9] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const epochSeconds =
    daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + (minute - offsetMinutes) * 60 + second;
  const fraction = (m[7] ?? "").replace(/0+$/, "");
  // Trailing zeros stripped: "5" < "55" and "" < "1" compare as the fractions they are.
  return { ok: true, instantKey: String(epochSeconds + KEY_BIAS).padStart(13, "0") + fraction };
}

/** The instant key of a date-time already known to be valid. */
export function instantKeyOf(value: string): string {
  const result = checkDateTime(value);
  if (!result.ok) throw new Error(`not a date-time: ${value}`);
  return result.instantKey;
}

/** The instant key of a clock reading in epoch milliseconds (no parsing, no memo churn per request). */
export function instantKeyOfEpochMs(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const fraction = String(ms - seconds * 1000)
    .padStart(3, "0")
    .replace(/0+$/, "");
  return String(seconds + KEY_BIAS).padStart(13, "0") + fraction;
}

/** Epoch seconds of an instant key (its fraction dropped): what offsets and local days are computed from. */
export function epochSecondsOfKey(key: string): number {
  return Number(key.slice(0, 13)) - KEY_BIAS;
}

/** The offset written in a date-time, in seconds east of UTC; undefined for "Z" (the time is given in UTC). */
export function writtenOffsetOf(value: string): number | undefined {
  if (value.endsWith("Z")) return undefined;
  const sign = value[value.length - 6] === "-" ? -1 : 1;
  return sign * (Number(value.slice(-5, -3)) * 3600 + Number(value.slice(-2)) * 60);
}

/** Days from 1970-01-01 to a valid YYYY-MM-DD date. */
export function epochDayOf(date: string): number {
  return daysFromCivil(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
}

/** The instant key of an epoch second (no fraction). */
export function instantKeyOfEpochSeconds(seconds: number): string {
  return String(seconds + KEY_BIAS).padStart(13, "0");
}

/**
 * The wall-clock minutes since 1970-01-01 00:00 that a valid date-time's text shows (its own
 * offset's local time): what a local day is read from when a cinema has no time zone.
 */
export function writtenWallMinutesOf(value: string): number {
  const days = daysFromCivil(digitsAt(value, 0, 4), digitsAt(value, 5, 2), digitsAt(value, 8, 2));
  return days * 1440 + digitsAt(value, 11, 2) * 60 + digitsAt(value, 14, 2);
}

/** An instant key written as a UTC date-time (seconds always shown, the fraction as the key keeps it). */
export function utcTextOfKey(key: string): string {
  const seconds = epochSecondsOfKey(key);
  const fraction = key.slice(13);
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}${fraction ? `.${fraction}` : ""}Z`;
}
