/**
 * The OpenAPI document's parameters against the parsers that take them (decision: the OpenAPI
 * document): for every query parameter of every table and every path parameter, a value the
 * document's schema takes (by a standard validator) is one the API takes, and one it refuses the
 * API refuses with a 400 naming the parameter; at each bound and past it, and for values drawn
 * from the schema as a fuzzer draws them. Values are sent as the document says a client sends
 * them: percent-encoded, an array (`style: form`, `explode: false`) as its items joined by commas.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CHANGES_PARAMETERS } from "../api/_core/endpoints/parameters/changes.js";
import type { ParameterTable } from "../api/_core/endpoints/parameters/parameter.js";
import { decodeId, LIST_TABLES, ONE_TABLES, parseTableQuery } from "../api/_core/endpoints/parse-request.js";
import { MAX_RADIUS_KM } from "../api/_core/endpoints/parameters/query-values.js";
import { NEAR_PATTERN, RADIUS_PATTERN } from "../api/_core/endpoints/parameters/value-patterns.js";
import { checkDate, checkDateTime } from "../api/_core/format/primitives/date-time.js";
import { DATE_PATTERN, DATE_TIME_PATTERN } from "../api/_core/format/primitives/date-time-patterns.js";
import { ApiError } from "../api/_core/respond/errors.js";
import { createOpenApiDocument } from "../build/openapi/openapi.js";
import { PLACE_PARAMETERS } from "../api/_core/endpoints/parameters/places.js";
import { createResponseValidator } from "../build/openapi/validate.js";
import { sampleQuery, withRequired } from "./helpers/parameter-samples.js";

type Json = Record<string, any>;

const doc = createOpenApiDocument() as Json;
const validator = createResponseValidator(doc);

/** Every documented query parameter once, by component, with a table whose parser takes it. */
const QUERY: Map<string, { name: string; table: ParameterTable }> = new Map();
for (const table of [...Object.values(LIST_TABLES), ...Object.values(ONE_TABLES), CHANGES_PARAMETERS, PLACE_PARAMETERS])
  for (const row of table as ParameterTable)
    for (const { component, parameter } of row.openapi)
      if (!QUERY.has(component)) QUERY.set(component, { name: parameter.name as string, table });

/**
 * Parameters taken only beside another (a 400 alone, decision: query parameters): the other, valid;
 * a place search's `q`, which it cannot do without (decision: places).
 */
const companionOf = (name: string, table: ParameterTable) => {
  if (table === PLACE_PARAMETERS && name !== "q") return "q=london";
  const required = withRequired([name]).slice(1);
  return required.length ? sampleQuery(required) : undefined;
};

const documented = (component: string): Json => doc.components.parameters[component];

/** The query value a client sends for a value of the parameter's schema type. */
function serialize(parameter: Json, value: unknown): string {
  if (Array.isArray(value)) {
    expect(parameter).toMatchObject({ style: "form", explode: false });
    return value.map((item) => encodeURIComponent(String(item))).join(",");
  }
  return encodeURIComponent(String(value));
}

/** Whether the document's schema takes the value. */
function schemaTakes(component: string, value: unknown): boolean {
  return validator.checkValue(documented(component).schema, value).length === 0;
}

/** Whether the API takes the value: parsed, or refused with a 400 naming the parameter (anything else fails). */
function apiTakes(component: string, value: unknown): boolean {
  const parameter = documented(component);
  const sent = serialize(parameter, value);
  try {
    // An empty segment names no record: the path routes nowhere (a 404), which a refusal it is too.
    if (parameter.in === "path") return sent !== "" && decodeId(parameter.name, sent) !== undefined;
    const { name, table } = QUERY.get(component)!;
    parseTableQuery(table, [companionOf(name, table), `${name}=${sent}`].filter(Boolean).join("&"));
    return true;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400 || error.details?.parameter !== parameter.name)
      throw error;
    return false;
  }
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `attr-${i}`);
const ID_CASES: Array<[unknown, boolean, string]> = [
  ["a", true, "one character"],
  ["x".repeat(160), true, "160 characters (the bound)"],
  ["x".repeat(161), false, "161 characters"],
  ["🎬".repeat(160), true, "160 astral code points: lengths count code points, as JSON Schema does"],
  ["🎬".repeat(161), false, "161 astral code points"],
  ["", false, "empty"],
  ["a b+c/d%e", true, "spaces, plus signs, slashes and percent signs, percent-encoded"],
];
const DATE_TIME_CASES: Array<[unknown, boolean, string]> = [
  ["2026-11-24T18:00Z", true, "hh:mm without seconds"],
  ["2026-11-24T23:59:59.123456789+23:59", true, "every field at its bound"],
  ["2028-02-29T00:00Z", true, "a leap day"],
  ["2000-02-29T00:00Z", true, "a leap day of a year divisible by 400"],
  ["0000-02-29T00:00Z", true, "year 0000 is a leap year"],
  ["1900-02-29T00:00Z", false, "no leap day in a year divisible by 100 only"],
  ["2026-02-29T00:00Z", false, "no leap day in 2026"],
  ["2026-04-31T00:00Z", false, "April has 30 days"],
  ["2026-13-01T00:00Z", false, "month 13"],
  ["2026-11-24T24:00Z", false, "hour 24"],
  ["2026-11-24T23:60Z", false, "minute 60"],
  ["2026-11-24T23:59:60Z", false, "a leap second (spec 2: seconds 00..59)"],
  ["2026-11-24T18:00+24:00", false, "an offset of 24 hours"],
  ["2026-11-24T18:00", false, "no zone"],
  ["2026-11-24T18:00:00.Z", false, "a dot without digits"],
  ["٢٠٢٦-11-24T18:00Z", false, "Arabic-Indic digits (what `\\d` means to some engines)"],
];

/** Per component: [value of the schema's type, taken, why]. Each at a bound and past it. */
const CASES: Record<string, Array<[unknown, boolean, string]>> = {
  limit: [
    [1, true, "the lower bound"],
    [100, true, "the upper bound"],
    [0, false, "below 1"],
    [101, false, "past 100"],
    [1.5, false, "not whole"],
    [-1, false, "negative"],
  ],
  changesLimit: [
    [5000, true, "the upper bound"],
    [5001, false, "past 5000"],
    [0, false, "below 1"],
  ],
  cinemaIdFilter: ID_CASES,
  filmIdFilter: ID_CASES,
  chainId: ID_CASES,
  cinemasFilmIdFilter: ID_CASES,
  filmsCinemaIdFilter: ID_CASES,
  showtimeId: ID_CASES,
  cinemaId: ID_CASES,
  filmId: ID_CASES,
  startsAfter: DATE_TIME_CASES,
  startsBefore: DATE_TIME_CASES,
  date: [
    ["2026-11-24", true, "a date"],
    ["2028-02-29", true, "a leap day"],
    ["0000-01-01", true, "year 0000"],
    ["2026-02-29", false, "no leap day in 2026"],
    ["2026-06-31", false, "June has 30 days"],
    ["2026-13-01", false, "month 13"],
    ["2026-1-01", false, "a one-digit month"],
    ["2026-11-24T00:00Z", false, "a date-time"],
    ["٢٠٢٦-11-24", false, "Arabic-Indic digits"],
  ],
  dayStartsAt: [
    ["00:00", true, "the lower bound"],
    ["05:59", true, "the upper bound"],
    ["06:00", false, "past 05:59"],
    ["05:60", false, "minute 60"],
    ["3:00", false, "a one-digit hour"],
  ],
  attributeIds: [
    [["lang-en"], true, "one id"],
    [ids(32), true, "32 ids (the bound)"],
    [ids(33), false, "33 ids"],
    [["x".repeat(160)], true, "an id of 160 characters"],
    [["x".repeat(161)], false, "an id of 161 characters"],
    [["a,b", "c"], true, "an id holding a comma (sent as %2C)"],
    [["lang-en", "lang-en"], false, "an id twice"],
    [["a", ""], false, "an empty item"],
    [[], false, "no id"],
  ],
  near: [
    ["90,180", true, "the corner of the map"],
    ["-90,-180", true, "the other corner"],
    ["-0,-0", true, "negative zero"],
    ["090.0000000,-180.0000000", true, "the bounds with leading zeros and 7 zero decimals"],
    ["51.1234567,-0.1234567", true, "7 decimals"],
    ["51.12345678,0", false, "8 decimals"],
    ["90.0000001,0", false, "latitude past 90"],
    ["0,180.0000001", false, "longitude past 180"],
    ["-91,0", false, "latitude -91"],
    ["0090,0", false, "four integer digits"],
    ["1e1,0", false, "exponent notation"],
    ["+1,0", false, "a plus sign"],
    [".5,0", false, "a leading dot"],
    ["5.,0", false, "a trailing dot"],
    ["51.5", false, "one number"],
    ["٥,٥", false, "Arabic-Indic digits"],
  ],
  radiusKm: [
    ["500", true, "the upper bound"],
    ["500.0000000", true, "the upper bound with 7 zero decimals"],
    ["499.9999999", true, "just under the bound"],
    ["0.0000001", true, "the smallest with 7 decimals"],
    ["025", true, "a leading zero"],
    ["500.0000001", false, "just past 500"],
    ["0", false, "zero"],
    ["000.0000000", false, "zero with leading zeros and decimals"],
    ["0.00000001", false, "8 decimals"],
    ["1.12345678", false, "8 decimals"],
    ["0500", false, "four integer digits"],
    ["1e2", false, "exponent notation"],
    ["-1", false, "negative"],
  ],
  countryCode: [
    ["DE", true, "two upper-case letters"],
    ["de", false, "lower case"],
    ["DEU", false, "three letters"],
  ],
  include: [
    ["film", true, "film"],
    ["cinema,film", true, "both, either order"],
    ["film,film", false, "film twice"],
    ["films", false, "a plural"],
  ],
  cinemasQ: [
    ["a", true, "one letter"],
    ["a".repeat(100), true, "100 characters (the bound)"],
    ["a".repeat(101), false, "101 characters"],
    ["千と千尋", true, "a title without spaces"],
  ],
};
// anyAttributeIds parses as attributeIds does (the ids known to a snapshot: test/attribute-filters.test.ts).
CASES.anyAttributeIds = CASES.attributeIds!;
// The lifted rows read their values exactly as /v1/showtimes' rows do.
for (const prefix of ["films", "cinemas"])
  for (const key of ["StartsAfter", "StartsBefore", "Date", "DayStartsAt", "AttributeIds", "AnyAttributeIds"])
    CASES[`${prefix}${key}`] = CASES[key[0]!.toLowerCase() + key.slice(1)]!;
CASES.filmsNear = CASES.near!;
CASES.filmsRadiusKm = CASES.radiusKm!;
CASES.filmsCountryCode = CASES.countryCode!;
CASES.filmsQ = CASES.cinemasQ!;
CASES.placesCountryCode = CASES.countryCode!;
CASES.placesQ = CASES.cinemasQ!;

/** Opaque values: only what the API issued is taken, which no schema can state (each description says so). */
const OPAQUE = ["cursor", "since"];

describe("every documented parameter has cases", () => {
  test("each component is in the table of cases, or opaque", () => {
    const components = Object.keys(doc.components.parameters).filter((c) => !OPAQUE.includes(c));
    expect(components.filter((c) => !CASES[c])).toEqual([]);
    expect(Object.keys(CASES).filter((c) => !documented(c))).toEqual([]);
  });

  test.each(OPAQUE)("%s says only an unchanged value the API issued is taken", (component) => {
    expect(documented(component).description).toMatch(/unchanged/);
  });
});

describe("at each bound and past it, the schema and the parser agree", () => {
  test.each(Object.entries(CASES).flatMap(([c, cases]) => cases.map(([value, taken, why]) => [c, why, value, taken])))(
    "%s: %s",
    (component, _why, value, taken) => {
      expect(schemaTakes(component as string, value), "the document").toBe(taken);
      expect(apiTakes(component as string, value), "the API").toBe(taken);
    },
  );
});

/** Components whose schema (or the one it references) has a pattern. */
function patternOf(component: string): string | undefined {
  const schema = documented(component).schema as Json;
  const ref = typeof schema.$ref === "string" ? doc.components.schemas[schema.$ref.split("/").pop()!] : schema;
  return ref.pattern;
}
const PATTERNED = Object.keys(CASES).filter((c) => patternOf(c) !== undefined);

/** A value with one character inserted, removed or replaced: near misses of a valid one. */
function mutated(valid: fc.Arbitrary<string>, alphabet: string): fc.Arbitrary<string> {
  const char = fc.constantFrom(...alphabet);
  return fc.tuple(valid, fc.nat(), fc.constantFrom("insert", "remove", "replace"), char).map(([value, at, how, c]) => {
    const i = value.length ? at % value.length : 0;
    if (how === "insert") return value.slice(0, i) + c + value.slice(i);
    if (how === "remove") return value.slice(0, i) + value.slice(i + 1);
    return value.slice(0, i) + c + value.slice(i + 1);
  });
}

describe("values drawn from the schema, as a fuzzer draws them", () => {
  test("the patterns are written with [0-9], never \\d (any Unicode digit to some engines)", () => {
    expect(JSON.stringify(doc)).not.toMatch(/\\\\d/);
  });

  test.each(PATTERNED)("%s: every value its pattern generates is taken", (component) => {
    const values = fc.stringMatching(new RegExp(patternOf(component)!));
    fc.assert(fc.property(values, (value) => apiTakes(component, value)));
  });

  test.each(PATTERNED)("%s: near misses of valid values, taken or refused alike", (component) => {
    const values = mutated(fc.stringMatching(new RegExp(patternOf(component)!)), "0123456789-+.,:TZAa");
    fc.assert(fc.property(values, (value) => apiTakes(component, value) === schemaTakes(component, value)));
  });

  test.each(["limit", "changesLimit"])("%s: any number, as JavaScript writes it, taken or refused alike", (c) => {
    const numbers = fc.oneof(fc.integer({ min: -10, max: 5010 }), fc.double(), fc.constantFrom(-0, 1e21, 5e-324));
    fc.assert(fc.property(numbers, (n) => apiTakes(c, n) === schemaTakes(c, n)));
  });

  const plainIds = Object.entries(CASES)
    .filter(([, cases]) => cases === ID_CASES)
    .map(([c]) => c);
  test.each(plainIds)("%s: any text of 0 to 170 code points, taken or refused alike", (component) => {
    const texts = fc.string({ unit: "binary", maxLength: 170 });
    fc.assert(fc.property(texts, (text) => apiTakes(component, text) === schemaTakes(component, text)));
  });

  test.each(["attributeIds", "anyAttributeIds"])("%s: any list of ids, taken or refused alike", (component) => {
    const lists = fc.oneof(
      fc.array(fc.string({ unit: "binary", maxLength: 165 }), { maxLength: 34 }),
      fc.array(fc.constantFrom("a", "b", "c,d", ""), { maxLength: 5 }),
    );
    fc.assert(fc.property(lists, (list) => apiTakes(component, list) === schemaTakes(component, list)));
  });

  test("include: any of its words in any order, taken or refused alike", () => {
    const values = fc.array(fc.constantFrom("film", "cinema", "films", ""), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(values, (words) => apiTakes("include", words.join(",")) === schemaTakes("include", words.join(","))),
    );
  });
});

describe("what JSON Schema cannot state portably is in the description", () => {
  const searches = ["cinemasQ", "filmsQ", "placesQ"];
  test.each(searches)("%s: a letter or digit to search by, whitespace at either end not counted", (c) => {
    // A pattern for "holds a letter or digit" needs \p{L}, which Python's and other engines' regexes lack.
    expect(documented(c).description).toMatch(/letter or (a )?digit/);
    expect(documented(c).description).toMatch(/whitespace/);
    expect([schemaTakes(c, "!?"), apiTakes(c, "!?")]).toEqual([true, false]);
  });

  test.each([
    ["radiusKm", "near"],
    ["dayStartsAt", "date"],
  ])("%s is taken only with %s (OpenAPI has no way to say so but words)", (component, other) => {
    expect(documented(component).description).toContain(`without \`${other}\``);
  });
});

describe("each pattern accepts exactly what its rule says", () => {
  /** Every whole part of 1 to 3 digits, leading zeros included, signed or not, with fractions around the bounds. */
  const numbers = (() => {
    const wholes: string[] = [];
    for (let digits = 1; digits <= 3; digits++)
      for (let n = 0; n < 10 ** digits; n++) wholes.push(String(n).padStart(digits, "0"));
    const fractions = ["", ".", ".0", ".0000000", ".00000000", ".0000001", ".5", ".9999999", ".12345678"];
    return ["", "-", "+"].flatMap((sign) => wholes.flatMap((w) => fractions.map((f) => `${sign}${w}${f}`)));
  })();
  // The rules as the parser wrote them before the patterns held the ranges: the form, then the value.
  const PLAIN = /^-?[0-9]{1,3}(?:\.[0-9]{1,7})?$/;
  const near = new RegExp(NEAR_PATTERN);
  const radius = new RegExp(RADIUS_PATTERN);

  test("near: plain decimals, 3 integer digits and 7 decimals at most, latitude within ±90, longitude ±180", () => {
    const wrong = numbers.filter(
      (n) =>
        near.test(`${n},0`) !== (PLAIN.test(n) && Math.abs(Number(n)) <= 90) ||
        near.test(`0,${n}`) !== (PLAIN.test(n) && Math.abs(Number(n)) <= 180),
    );
    expect(wrong).toEqual([]);
  });

  test(`radiusKm: unsigned plain decimals, greater than 0 and at most ${MAX_RADIUS_KM}`, () => {
    const rule = (n: string) => PLAIN.test(n) && !n.startsWith("-") && Number(n) > 0 && Number(n) <= MAX_RADIUS_KM;
    expect(numbers.filter((n) => radius.test(n) !== rule(n))).toEqual([]);
  });

  const two = (n: number) => String(n).padStart(2, "0");
  test("date: every month and day of leap and common years, as checkDate judges them", () => {
    const date = new RegExp(DATE_PATTERN);
    const wrong: string[] = [];
    for (const year of ["0000", "0004", "0100", "1900", "2000", "2024", "2026", "2100", "2400", "9999"])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) {
          const value = `${year}-${two(month)}-${two(day)}`;
          if (date.test(value) !== (checkDate(value) === undefined)) wrong.push(value);
        }
    expect(wrong).toEqual([]);
  });

  test("date-time: every hour, minute, second and offset, as checkDateTime judges them", () => {
    const dateTime = new RegExp(DATE_TIME_PATTERN);
    const values: string[] = [];
    for (let h = 0; h <= 25; h++)
      for (let m = 0; m <= 61; m++) {
        values.push(`2026-11-24T${two(h)}:${two(m)}Z`, `2026-11-24T12:00${h % 2 ? "+" : "-"}${two(h)}:${two(m)}`);
        values.push(`2026-11-24T12:${two(h)}:${two(m)}.5Z`);
      }
    expect(values.filter((v) => dateTime.test(v) !== checkDateTime(v).ok)).toEqual([]);
  });
});
