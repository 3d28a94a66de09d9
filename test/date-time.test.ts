/**
 * The spec's date-time form (spec §2; decision: validation of source data where it is silent) and
 * the instant key that orders showtimes (decision: ordering), checked against an independent
 * BigInt oracle.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  civilFromDays,
  daysFromCivil,
  checkDate,
  checkDateTime,
  DateTimeMemo,
  instantKeyOf,
  instantKeyOfEpochMs,
} from "../api/_core/format/primitives/date-time.js";

describe("checkDateTime accepts the spec's form", () => {
  test.each([
    ["2026-03-06T20:15Z", "hh:mm without seconds"],
    ["2026-03-06T20:15:59Z", "hh:mm:ss"],
    ["2026-03-06T20:15:00.5Z", "one fractional digit"],
    ["2026-03-06T20:15:00.123456789012345Z", "fractions of any length (spec sets no limit)"],
    ["2026-03-06T20:15+01:00", "a positive offset"],
    ["2026-03-06T20:15-09:30", "a negative offset with minutes"],
    ["2026-03-06T20:15+23:59", "the largest offset hh:mm allows"],
    ["2026-03-06T20:15-00:00", "RFC 3339's unknown-offset form is still a valid zone"],
    ["2024-02-29T00:00Z", "2024 is a leap year"],
    ["2000-02-29T00:00Z", "2000 is a leap year (divisible by 400)"],
    ["0000-01-01T00:00Z", "the first four-digit year"],
    ["9999-12-31T23:59:59.999999999Z", "the last four-digit instant"],
    ["2026-12-31T23:59:59Z", "the last second of a year"],
    ["2026-01-01T00:00:00Z", "midnight is 00:00"],
  ])("%s: %s", (value) => {
    expect(checkDateTime(value)).toMatchObject({ ok: true });
  });
});

describe("checkDateTime rejects everything else, with a reason", () => {
  test.each([
    ["2026-03-06T20:15:00", "the zone is mandatory", "followed by Z or ±hh:mm"],
    ["2026-03-06t20:15Z", "the T is uppercase", "expected"],
    ["2026-03-06T20:15z", "the Z is uppercase", "expected"],
    ["2026-03-06 20:15Z", "a space instead of T", "expected"],
    ["2026-03-06T20Z", "minutes are required", "expected"],
    ["2026-03-06T20:15.5Z", "a fraction needs seconds", "expected"],
    ["2026-03-06T20:15:00.Z", "a dot needs digits", "expected"],
    ["2026-03-06T20:15:00,5Z", "RFC 3339 uses a dot for fractions", "expected"],
    ["2026-03-06T20:15+0100", "the offset needs its colon", "expected"],
    ["2026-03-06T20:15+01", "the offset needs minutes", "expected"],
    ["2026-03-06T8:15Z", "hours have two digits", "expected"],
    ["2026-3-06T20:15Z", "months have two digits", "expected"],
    ["26-03-06T20:15Z", "years have four digits", "expected"],
    ["+02026-03-06T20:15Z", "expanded years are not RFC 3339", "expected"],
    ["2026-03-06", "a date is not a date-time", "expected"],
    ["", "empty", "expected"],
    ["2026-03-06T20:15Z ", "trailing space", "expected"],
    ["２０２６-03-06T20:15Z", "fullwidth digits are not digits", "expected"],
    ["2023-02-29T12:00Z", "2023 is not a leap year", "2023 is not a leap year"],
    ["1900-02-29T12:00Z", "1900 is not a leap year (divisible by 100)", "1900 is not a leap year"],
    ["2026-04-31T12:00Z", "April has 30 days", "day 31 does not exist in month 04"],
    ["2026-13-01T12:00Z", "there is no month 13", "month 13 does not exist"],
    ["2026-00-01T12:00Z", "there is no month 00", "month 00 does not exist"],
    ["2026-01-00T12:00Z", "there is no day 00", "day 00 does not exist"],
    ["2026-03-06T24:00Z", "hour 24 is not allowed (use 00:00 the next day)", "hour 24 is out of range"],
    ["2026-03-06T20:60Z", "minute 60", "minute 60 is out of range"],
    ["2026-03-06T23:59:60Z", "leap seconds are not representable as instants here", "second 60 is out of range"],
    ["2026-03-06T20:15+24:00", "offset hours stop at 23", "zone offset +24:00 is out of range"],
    ["2026-03-06T20:15-01:60", "offset minutes stop at 59", "zone offset -01:60 is out of range"],
  ])("%s: %s", (value, _reason, fragment) => {
    const result = checkDateTime(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(fragment);
  });
});

describe("checkDate (releaseDate)", () => {
  test.each([
    ["2024-02-29", undefined],
    ["2023-02-29", "2023 is not a leap year"],
    ["2026-02-28", undefined],
    ["2026-06-31", "day 31 does not exist in month 06"],
    ["2026-12-31", undefined],
    ["2026-13-01", "month 13 does not exist"],
    ["2026-01-01T00:00Z", "expected YYYY-MM-DD"],
  ])("%s → %s", (value, reason) => {
    expect(checkDate(value)).toBe(reason);
  });
});

describe("the instant key", () => {
  const keyOf = (value: string) => {
    const result = checkDateTime(value);
    if (!result.ok) throw new Error(result.reason);
    return result.instantKey;
  };

  test.each([
    ["2026-03-07T18:30Z", "2026-03-07T19:30:00.000+01:00", "the same instant in two offsets and precisions"],
    ["2026-03-07T18:30:00.5Z", "2026-03-07T18:30:00.500000000Z", "trailing fractional zeros do not matter"],
    ["2026-03-07T00:00Z", "2026-03-06T23:00-01:00", "an offset can move the date"],
  ])("%s equals %s: %s", (a, b) => {
    expect(keyOf(a)).toBe(keyOf(b));
  });

  test.each([
    ["2026-03-07T18:30Z", "2026-03-07T18:30:00.0000001Z", "100 ns later: precision below milliseconds counts"],
    [
      "2026-03-07T18:30:00.09999999999Z",
      "2026-03-07T18:30:00.1Z",
      "0.0999… s is before 0.1 s, though its digits are more",
    ],
    ["2026-03-07T18:30+01:00", "2026-03-07T18:00Z", "18:30+01:00 is 17:30Z"],
    ["0999-12-31T23:59:59.9Z", "1000-01-01T00:00Z", "years before 1000 still order by instant"],
    ["1969-12-31T23:59:59.999Z", "1970-01-01T00:00Z", "instants before the epoch order too"],
  ])("%s is before %s: %s", (earlier, later) => {
    expect(keyOf(earlier) < keyOf(later)).toBe(true);
  });

  // ---- Property: ordering by instant key equals ordering by an exact BigInt oracle.

  const pad = (n: number, width = 2) => String(n).padStart(width, "0");

  /** Days in a month via Date, independent of the module under test. */
  function daysIn(year: number, month: number): number {
    const d = new Date(0);
    d.setUTCFullYear(year, month, 0); // day 0 of the next month: the last day of this one
    return d.getUTCDate();
  }

  interface Parts {
    year: number;
    month: number;
    day: number;
    hour: number;
    minute: number;
    second?: number;
    fraction?: string;
    offset: number | "Z";
  }

  function textOf(p: Parts): string {
    let time = `${pad(p.hour)}:${pad(p.minute)}`;
    if (p.second !== undefined) time += `:${pad(p.second)}${p.fraction === undefined ? "" : `.${p.fraction}`}`;
    const sign = typeof p.offset === "number" && p.offset < 0 ? "-" : "+";
    const abs = typeof p.offset === "number" ? Math.abs(p.offset) : 0;
    const zone = p.offset === "Z" ? "Z" : `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${time}${zone}`;
  }

  /** Whole seconds since the epoch, offset applied. */
  function secondsOf(p: Parts): number {
    const d = new Date(0);
    d.setUTCFullYear(p.year, p.month - 1, p.day); // setUTCFullYear keeps years 0..99 literal, unlike Date.UTC
    d.setUTCHours(p.hour, p.minute, p.second ?? 0, 0);
    return d.getTime() / 1000 - (p.offset === "Z" ? 0 : p.offset * 60);
  }

  /** Exact picoseconds since the epoch: seconds × 10^12 plus the fraction to 12 digits. */
  function oracleOf(p: Parts): bigint {
    return BigInt(secondsOf(p)) * 10n ** 12n + BigInt((p.fraction ?? "").padEnd(12, "0"));
  }

  const secondsAndFraction = fc.oneof(
    fc.constant({}),
    fc.record({ second: fc.integer({ min: 0, max: 59 }) }),
    fc.record({ second: fc.integer({ min: 0, max: 59 }), fraction: fc.stringMatching(/^\d{1,12}$/) }),
  );

  const offset = fc.oneof(fc.constant("Z" as const), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }));

  /** Wide years, or one narrow evening where equal and adjacent instants are common. */
  const dateParts = fc.oneof(
    fc
      .record({ year: fc.integer({ min: 0, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
      .chain(({ year, month }) =>
        fc.record({
          year: fc.constant(year),
          month: fc.constant(month),
          day: fc.integer({ min: 1, max: daysIn(year, month) }),
        }),
      ),
    fc.record({ year: fc.constant(2024), month: fc.constant(2), day: fc.integer({ min: 28, max: 29 }) }),
  );

  const hourMinute = fc.oneof(
    fc.record({ hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }) }),
    fc.record({ hour: fc.constantFrom(0, 23), minute: fc.constantFrom(0, 30, 59) }),
  );

  const parts: fc.Arbitrary<Parts> = fc
    .tuple(dateParts, hourMinute, secondsAndFraction, fc.oneof(offset, fc.constantFrom("Z" as const, 60, -60)))
    .map(([date, time, sf, zone]) => ({ ...date, ...time, ...sf, offset: zone }));

  test("instant keys order exactly as the oracle does (random offsets, fractions up to 12 digits)", () => {
    fc.assert(
      fc.property(fc.array(parts, { minLength: 2, maxLength: 12 }), (list) => {
        const items = list.map((p) => ({ text: textOf(p), key: checkDateTime(textOf(p)), exact: oracleOf(p) }));
        for (const item of items) expect(item.key, item.text).toMatchObject({ ok: true });
        const keys = items.map((i) => (i.key.ok ? i.key.instantKey : ""));
        for (let i = 0; i < items.length; i++) {
          for (let j = 0; j < items.length; j++) {
            const byKey = Math.sign(keys[i]! < keys[j]! ? -1 : keys[i]! > keys[j]! ? 1 : 0);
            const byOracle = Math.sign(Number(items[i]!.exact - items[j]!.exact));
            expect(byKey, `${items[i]!.text} vs ${items[j]!.text}`).toBe(byOracle);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  test("one instant written in another offset gets the same key", () => {
    fc.assert(
      fc.property(parts, fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }), (p, other) => {
        // Re-express p's instant in another offset via the oracle; skip when it leaves years 0000..9999.
        const exact = oracleOf(p);
        const fraction = (p.fraction ?? "").padEnd(12, "0");
        const local = new Date(secondsOf(p) * 1000 + other * 60_000);
        const year = local.getUTCFullYear();
        fc.pre(year >= 0 && year <= 9999);
        const moved: Parts = {
          year,
          month: local.getUTCMonth() + 1,
          day: local.getUTCDate(),
          hour: local.getUTCHours(),
          minute: local.getUTCMinutes(),
          second: local.getUTCSeconds(),
          fraction,
          offset: other,
        };
        expect(oracleOf(moved)).toBe(exact);
        const [a, b] = [checkDateTime(textOf(p)), checkDateTime(textOf(moved))];
        expect(a.ok && b.ok && a.instantKey === b.instantKey, `${textOf(p)} vs ${textOf(moved)}`).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("civil dates and days since 1970-01-01", () => {
  test.each([
    [0, 1, 1, -719_528],
    [0, 2, 29, -719_469],
    [1969, 12, 31, -1],
    [1970, 1, 1, 0],
    [2000, 2, 29, 11_016],
    [2026, 11, 27, 20_784],
    [9999, 12, 31, 2_932_896],
  ])("%i-%i-%i is day %i, and back", (year, month, day, days) => {
    expect(daysFromCivil(year, month, day)).toBe(days);
    expect(civilFromDays(days)).toBe(year * 10_000 + month * 100 + day);
  });

  test("every day of years 0000 to 9999 is the date Date gives it", () => {
    fc.assert(
      fc.property(fc.integer({ min: -719_528, max: 2_932_896 }), (days) => {
        const date = new Date(days * 86_400_000);
        const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
        expect(civilFromDays(days)).toBe(y * 10_000 + m * 100 + d);
      }),
    );
  });
});

describe("instantKeyOfEpochMs", () => {
  test("equals the key of the same clock reading written as a date-time", () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_000_000_000_000, max: 250_000_000_000_000 }), (ms) => {
        expect(instantKeyOfEpochMs(ms)).toBe(instantKeyOf(new Date(ms).toISOString()));
      }),
    );
  });
});

describe("the build's date-time memo (decision: caches keyed by input)", () => {
  const cases: [string, string, boolean][] = [
    ["a valid time is kept", "2026-11-24T18:00:00Z", true],
    ["a valid time with an offset is kept", "2026-11-24T18:00+01:00", true],
    ["an invalid time is not kept", "2026-02-30T18:00:00Z", false],
    ["text that is no date-time is not kept", "tonight", false],
    ["a valid time of 64 characters is kept", `2026-11-24T18:00:00.${"1".repeat(43)}Z`, true],
    ["a valid time of 65 characters is not kept", `2026-11-24T18:00:00.${"1".repeat(44)}Z`, false],
  ];
  test.each(cases)("%s", (_, value, kept) => {
    const memo = new DateTimeMemo();
    expect(memo.check(value)).toEqual(checkDateTime(value));
    expect(memo.size).toBe(kept ? 1 : 0);
    expect(memo.check(value)).toEqual(checkDateTime(value));
  });

  test("answers exactly as the parser, and never holds more bytes than its bound", () => {
    const memo = new DateTimeMemo(2000);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            fc.string(),
          ),
          { maxLength: 50 },
        ),
        (values) => {
          for (const value of values) {
            expect(memo.check(value)).toEqual(checkDateTime(value));
            expect(memo.bytes).toBeLessThanOrEqual(2000);
          }
        },
      ),
    );
  });
});
