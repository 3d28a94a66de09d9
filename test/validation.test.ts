/**
 * Every record rule of spec §2 and limit of spec §8 (and, where they are silent, decision:
 * validation of source data and decision: record size), one table row per rule and bound: valid
 * at the bound, invalid just past it, each row with its reason.
 */
import { describe, expect, test } from "vitest";
import type { ProblemCode, Problem } from "../build/report/problems.js";
import type { Resource } from "../build/validate/schemas.js";
import { MAX_RECORD_BYTES } from "../api/_core/format/layout/showtime-fields.js";
import { checkRecord } from "../build/validate/check-record.js";
import { validRecords } from "./helpers/build-helpers.js";

const OMIT = Symbol("omit");

type Expected = "valid" | { code: ProblemCode; path?: string; message?: string };

interface Case {
  resource: Resource;
  /** Dotted path of the field the case sets (or omits) in an otherwise valid record. */
  path: string;
  value: unknown;
  reason: string;
  expected: Expected;
}

function recordWith(resource: Resource, dotted: string, value: unknown): Record<string, unknown> {
  const record = structuredClone(validRecords()[resource]) as Record<string, unknown>;
  const keys = dotted.split(".");
  let parent = record;
  for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = keys.at(-1)!;
  if (value === OMIT) delete parent[last];
  else parent[last] = value;
  return record;
}

function problemsOf(resource: Resource, value: unknown): Problem[] {
  const problems: Problem[] = [];
  checkRecord({ resource, file: "data/x.ndjson", line: 7, value }, problems);
  return problems;
}

const valid = (resource: Resource, path: string, value: unknown, reason: string): Case => ({
  resource,
  path,
  value,
  reason,
  expected: "valid",
});

const invalid = (
  resource: Resource,
  path: string,
  value: unknown,
  reason: string,
  code: ProblemCode,
  message?: string,
  problemPath?: string,
): Case => ({
  resource,
  path,
  value,
  reason,
  expected: { code, message, path: problemPath },
});

// ---- Lengths: spec §2 bounds, counted in code points (decision: lengths), so astral characters count once.

const LENGTH_RULES: Array<[Resource, string, number, number]> = [
  ["showtimes", "id", 1, 160],
  ["showtimes", "filmId", 1, 160],
  ["showtimes", "cinemaId", 1, 160],
  ["showtimes", "screenName", 1, 120],
  ["showtimes", "provenance.provider", 1, 80],
  ["showtimes", "provenance.externalId", 1, 240],
  ["cinemas", "id", 1, 160],
  ["cinemas", "chainId", 1, 160],
  ["cinemas", "name", 1, 240],
  ["cinemas", "location.locality", 1, 160],
  ["cinemas", "location.postcode", 2, 16],
  ["cinemas", "location.address", 1, 300],
  ["cinemas", "provenance.provider", 1, 80],
  ["films", "id", 1, 160],
  ["films", "title", 1, 300],
  ["films", "certification", 1, 32],
  ["films", "provenance.externalId", 1, 240],
  ["attributes", "id", 1, 160],
  ["attributes", "name", 1, 120],
  ["attributes", "description", 0, 500],
];

const EMOJI = "🎬"; // one code point, two UTF-16 units

function lengthCases([resource, path, min, max]: [Resource, string, number, number]): Case[] {
  const tooLong = (got: number) => `must be ${min}..${max} characters long (got ${got})`;
  const cases = [
    valid(resource, path, EMOJI.repeat(max), `${max} astral characters is the upper bound (each counts as one)`),
    invalid(
      resource,
      path,
      EMOJI.repeat(max + 1),
      `${max + 1} astral characters is one past the bound`,
      "invalid_value",
      tooLong(max + 1),
    ),
    invalid(
      resource,
      path,
      "x".repeat(max + 1),
      `${max + 1} ASCII characters is one past the bound`,
      "invalid_value",
      tooLong(max + 1),
    ),
  ];
  if (min === 0) return [...cases, valid(resource, path, "", "the spec gives only a maximum, so empty is allowed")];
  return [
    ...cases,
    valid(resource, path, "x".repeat(min), `${min} characters is the lower bound`),
    invalid(
      resource,
      path,
      "x".repeat(min - 1),
      `${min - 1} characters is one short of the bound`,
      "invalid_value",
      tooLong(min - 1),
    ),
  ];
}

const LENGTH_CASES: Case[] = [
  ...LENGTH_RULES.flatMap(lengthCases),
  valid("showtimes", "id", "e\u0301".repeat(80), "a combining accent is its own code point: 80 × (e + U+0301) = 160"),
  invalid(
    "showtimes",
    "id",
    `${"e\u0301".repeat(80)}e`,
    "161 code points even though it shows as 81 letters",
    "invalid_value",
    "(got 161)",
  ),
  valid("showtimes", "id", "fr/paris/Le Grand Rex ★ ../%2F", "ids may hold '/', spaces, dots, '%' and any Unicode"),
  valid("showtimes", "attributeIds", [EMOJI.repeat(160)], "an attribute id entry follows the id bound (160)"),
  invalid(
    "showtimes",
    "attributeIds",
    [EMOJI.repeat(161)],
    "an attribute id entry longer than 160",
    "invalid_value",
    "(got 161)",
    "attributeIds[0]",
  ),
  invalid(
    "showtimes",
    "attributeIds",
    ["format-2d", ""],
    "an empty attribute id entry",
    "invalid_value",
    "(got 0)",
    "attributeIds[1]",
  ),
];

// ---- Numbers, enums, arrays, formats.

const thirtyTwo = Array.from({ length: 32 }, (_, i) => `attr-${i}`);

const RULE_CASES: Case[] = [
  valid("showtimes", "attributeIds", thirtyTwo, "32 attributeIds is the spec's maximum"),
  invalid(
    "showtimes",
    "attributeIds",
    [...thirtyTwo, "attr-32"],
    "33 attributeIds is one past the maximum",
    "invalid_value",
    "at most 32",
  ),
  valid("showtimes", "attributeIds", [], "no attributes is a valid (empty) list"),
  invalid(
    "showtimes",
    "attributeIds",
    ["lang-en", "format-2d", "lang-en"],
    "the same attribute listed twice",
    "invalid_value",
    "same attribute twice",
  ),

  valid("films", "durationMinutes", 1000, "1000 is the spec's maximum"),
  valid("films", "durationMinutes", 1, "one minute is the shortest real film"),
  invalid("films", "durationMinutes", 1001, "one past the maximum", "invalid_value", "at most 1000"),
  invalid("films", "durationMinutes", 1.5, "the spec's type is integer", "invalid_type", "whole number"),
  invalid("films", "durationMinutes", 0, "a zero-length film is a data error", "invalid_value", "at least 1"),
  invalid("films", "durationMinutes", -90, "negative durations are a data error", "invalid_value", "at least 1"),
  invalid(
    "films",
    "durationMinutes",
    "90",
    "a numeric string is not an integer",
    "invalid_type",
    "must be a number (got string)",
  ),

  valid("cinemas", "location.latitude", 90, "the north pole is the bound"),
  valid("cinemas", "location.latitude", -90, "the south pole is the bound"),
  invalid("cinemas", "location.latitude", 90.0001, "just past the north pole", "invalid_value", "between -90 and 90"),
  invalid("cinemas", "location.latitude", -90.0001, "just past the south pole", "invalid_value", "between -90 and 90"),
  invalid("cinemas", "location.latitude", "51.5", "a numeric string is not a number", "invalid_type", "(got string)"),
  valid("cinemas", "location.longitude", 180, "the antimeridian, east"),
  valid("cinemas", "location.longitude", -180, "the antimeridian, west"),
  invalid("cinemas", "location.longitude", 180.0001, "just past 180", "invalid_value", "between -180 and 180"),
  invalid("cinemas", "location.longitude", -180.0001, "just past -180", "invalid_value", "between -180 and 180"),

  valid("cinemas", "location.countryCode", "DE", "ISO 3166-1 alpha-2 (decision: validation of source data)"),
  invalid("cinemas", "location.countryCode", "de", "codes are uppercase", "invalid_value", "two uppercase letters"),
  invalid("cinemas", "location.countryCode", "DEU", "alpha-3 is not alpha-2", "invalid_value", "two uppercase letters"),
  invalid("cinemas", "location.countryCode", "D", "one letter is too short", "invalid_value", "two uppercase letters"),
  invalid("cinemas", "location.countryCode", "D1", "digits are not letters", "invalid_value", "two uppercase letters"),
  invalid("cinemas", "location.countryCode", "ÄÖ", "only A-Z", "invalid_value", "two uppercase letters"),

  ...["accessibility", "event", "format", "language"].map((kind) =>
    valid("attributes", "kind", kind, `${kind} is one of the spec's four kinds`),
  ),
  invalid(
    "attributes",
    "kind",
    "Format",
    "enum values are case-sensitive",
    "invalid_value",
    "must be one of accessibility, event, format, language",
  ),
  invalid("attributes", "kind", "subtitles", "not one of the four kinds", "invalid_value", "must be one of"),
  invalid("attributes", "kind", "", "empty is not a kind", "invalid_value", "must be one of"),

  ...(["showtimes:bookingUrl", "films:posterUrl"] as const).flatMap((where) => {
    const [resource, path] = where.split(":") as [Resource, string];
    const bad = (value: string, reason: string) =>
      invalid(resource, path, value, reason, "invalid_value", "absolute http or https URL");
    return [
      valid(resource, path, "http://example.com", "absolute http URL"),
      valid(resource, path, "https://example.com/a/b?c=d&e=f#g", "absolute https URL with query and fragment"),
      valid(resource, path, "HTTPS://Example.COM/x", "schemes and hosts are case-insensitive (RFC 3986)"),
      bad("ftp://example.com/file", "only http(s) is something a client can open"),
      bad("/relative/path", "a relative reference"),
      bad("example.com/page", "no scheme"),
      bad("//example.com/page", "scheme-relative"),
      bad("javascript:alert(1)", "script URLs must never reach clients"),
      bad("https://example.com/a b", "a space inside"),
      bad(" https://example.com", "a leading space"),
      bad("https:example.com", "no '//': browsers repair it, other clients do not"),
      bad("http://", "no host"),
      bad("mailto:box@example.com", "not http(s)"),
      bad("https://example.com/é", "a URI is ASCII: other characters must be percent-encoded"),
      valid(resource, path, `https://x.example/${"a".repeat(2048 - 18)}`, "2048 characters: the bound"),
      invalid(
        resource,
        path,
        `https://x.example/${"a".repeat(2049 - 18)}`,
        "2049 characters: past what browsers and proxies take",
        "invalid_value",
        "must be at most 2048 characters long (got 2049)",
      ),
    ];
  }),

  valid("films", "releaseDate", "2024-02-29", "2024 is a leap year"),
  valid("films", "releaseDate", "2000-02-29", "2000 is a leap year (divisible by 400)"),
  invalid("films", "releaseDate", "2023-02-29", "2023 is not a leap year", "invalid_value", "2023 is not a leap year"),
  invalid(
    "films",
    "releaseDate",
    "1900-02-29",
    "1900 is not a leap year (divisible by 100)",
    "invalid_value",
    "1900 is not a leap year",
  ),
  invalid("films", "releaseDate", "2026-13-01", "there is no month 13", "invalid_value", "month 13 does not exist"),
  invalid("films", "releaseDate", "2026-00-10", "there is no month 00", "invalid_value", "month 00 does not exist"),
  invalid("films", "releaseDate", "2026-04-31", "April has 30 days", "invalid_value", "day 31 does not exist"),
  invalid(
    "films",
    "releaseDate",
    "2026-4-01",
    "YYYY-MM-DD needs two-digit months",
    "invalid_value",
    "expected YYYY-MM-DD",
  ),
  invalid(
    "films",
    "releaseDate",
    "2026-04-01T00:00:00Z",
    "a date-time is not a date",
    "invalid_value",
    "expected YYYY-MM-DD",
  ),

  // The date-time grammar itself is covered in date-time.test.ts; these show each field uses it.
  ...(
    [
      "showtimes:startsAt",
      "showtimes:provenance.observedAt",
      "showtimes:provenance.sourceUpdatedAt",
      "cinemas:provenance.observedAt",
      "films:provenance.sourceUpdatedAt",
    ] as const
  ).flatMap((where) => {
    const [resource, path] = where.split(":") as [Resource, string];
    return [
      valid(resource, path, "2026-03-06T20:15+01:00", "hh:mm without seconds is the spec's form"),
      valid(resource, path, "2024-02-29T23:59:59.123456789Z", "leap day, fraction of any length"),
      invalid(
        resource,
        path,
        "2026-03-06T20:15:00",
        "the zone is mandatory",
        "invalid_value",
        "is not a valid date-time",
      ),
      invalid(
        resource,
        path,
        "2023-02-29T10:00Z",
        "leap days only in leap years",
        "invalid_value",
        "2023 is not a leap year",
      ),
    ];
  }),
];

// ---- Presence, unknown fields and JSON types.

const REQUIRED: Record<Resource, string[]> = {
  showtimes: [
    "id",
    "filmId",
    "cinemaId",
    "startsAt",
    "attributeIds",
    "provenance",
    "provenance.observedAt",
    "provenance.provider",
    "provenance.externalId",
  ],
  cinemas: [
    "id",
    "name",
    "location",
    "location.countryCode",
    "location.locality",
    "location.postcode",
    "provenance",
    "provenance.observedAt",
  ],
  films: ["id", "title", "provenance", "provenance.provider"],
  attributes: ["id", "kind", "name"],
};

const OPTIONAL: Record<Resource, string[]> = {
  showtimes: ["bookingUrl", "screenName", "provenance.sourceUpdatedAt"],
  cinemas: ["chainId", "location.address", "location.latitude", "location.longitude", "provenance.sourceUpdatedAt"],
  films: ["durationMinutes", "certification", "posterUrl", "releaseDate", "provenance.sourceUpdatedAt"],
  attributes: ["description"],
};

const entriesOf = (table: Record<Resource, string[]>) => Object.entries(table) as Array<[Resource, string[]]>;

const SHAPE_CASES: Case[] = [
  ...entriesOf(REQUIRED).flatMap(([resource, paths]) =>
    paths.map((path) => invalid(resource, path, OMIT, "required by spec §2", "missing_field", "is required")),
  ),
  ...entriesOf(OPTIONAL).flatMap(([resource, paths]) =>
    paths.map((path) => valid(resource, path, OMIT, "optional in spec §2")),
  ),

  invalid(
    "showtimes",
    "startAt",
    "2026-03-06T20:15Z",
    "a typo of startsAt is an unknown field, not silently dropped",
    "unknown_field",
    "not a field of this record",
  ),
  invalid(
    "showtimes",
    "provenance.observed_at",
    "2026-03-06T20:15Z",
    "unknown fields are found inside provenance too",
    "unknown_field",
  ),
  invalid("cinemas", "location.lat", 51.5, "unknown fields are found inside location too", "unknown_field"),
  invalid(
    "cinemas",
    "provenance.url",
    "https://example.com",
    "provenance has exactly the spec's four fields",
    "unknown_field",
  ),
  invalid("films", "runtime", 116, "the spec calls it durationMinutes", "unknown_field"),
  invalid(
    "attributes",
    "provenance",
    { observedAt: "2026-03-05T06:00Z", provider: "p", externalId: "e" },
    "attributes have no provenance (spec §2.5)",
    "unknown_field",
  ),

  invalid("showtimes", "id", 42, "ids are strings", "invalid_type", "must be a string (got number)"),
  invalid("showtimes", "screenName", null, "null is not a way to omit an optional field", "invalid_type", "(got null)"),
  invalid(
    "showtimes",
    "attributeIds",
    "format-2d",
    "attributeIds is an array",
    "invalid_type",
    "must be an array (got string)",
  ),
  invalid(
    "showtimes",
    "attributeIds",
    [7],
    "attribute ids are strings",
    "invalid_type",
    "must be a string (got number)",
    "attributeIds[0]",
  ),
  invalid(
    "showtimes",
    "provenance",
    "feed",
    "provenance is an object",
    "invalid_type",
    "must be an object (got string)",
  ),
  invalid("cinemas", "location", [], "location is an object, not an array", "invalid_type", "(got array)"),
  invalid("films", "title", true, "titles are strings", "invalid_type", "(got boolean)"),
  invalid("attributes", "kind", 3, "a kind is one of four strings", "invalid_value", "must be one of"),
];

const CASES = [...LENGTH_CASES, ...RULE_CASES, ...SHAPE_CASES];

describe("checkRecord: one rule per row", () => {
  test.each(CASES)("$resource $path: $reason", ({ resource, path, value, expected }) => {
    const problems = problemsOf(resource, recordWith(resource, path, value));
    if (expected === "valid") {
      expect(problems).toEqual([]);
      return;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      code: expected.code,
      path: expected.path ?? path,
      file: "data/x.ndjson",
      line: 7,
    });
    if (expected.message) expect(problems[0]!.message).toContain(expected.message);
  });

  test("the unmodified records are valid", () => {
    for (const [resource, record] of Object.entries(validRecords()))
      expect(problemsOf(resource as Resource, record)).toEqual([]);
  });
});

describe("checkRecord: whole records", () => {
  test.each([
    [null, "null"],
    [[], "array"],
    ["st-1", "string"],
    [42, "number"],
    [true, "boolean"],
  ])("a record that is %j is not_an_object (got %s)", (value, type) => {
    const problems = problemsOf("showtimes", value);
    expect(problems).toEqual([
      {
        code: "not_an_object",
        file: "data/x.ndjson",
        line: 7,
        index: undefined,
        path: "",
        message: `must be a JSON object (got ${type})`,
      },
    ]);
  });

  test("every problem in a record is reported, not just the first", () => {
    const record = {
      ...validRecords().showtimes,
      id: "",
      startAt: "x",
      colour: "red",
      provenance: { provider: "p", externalId: "e" },
    };
    delete (record as Partial<typeof record>).startsAt;
    const found = problemsOf("showtimes", record)
      .map((p) => `${p.code} ${p.path}`)
      .sort();
    expect(found).toEqual([
      "invalid_value id",
      "missing_field provenance.observedAt",
      "missing_field startsAt",
      "unknown_field colour",
      "unknown_field startAt",
    ]);
  });

  test("the largest showtime the field bounds allow stays under the record size (decision: record size)", () => {
    // Every text at its bound, in characters that JSON escapes to six bytes each.
    const longest = (n: number) => "\u0001".repeat(n);
    const attributeIds = Array.from({ length: 32 }, (_, i) => `${i}`.padEnd(160, "\u0001"));
    const showtime = {
      ...validRecords().showtimes,
      id: longest(160),
      filmId: longest(160),
      cinemaId: longest(160),
      bookingUrl: `https://x.example/${"a".repeat(2048 - 18)}`,
      attributeIds,
      screenName: longest(120),
      provenance: { ...validRecords().showtimes.provenance, provider: longest(80), externalId: longest(240) },
    };
    const json = JSON.stringify(showtime);
    expect(Buffer.byteLength(json)).toBeLessThan(MAX_RECORD_BYTES);
  });

  test("a JSON array record carries its index instead of a line", () => {
    const problems: Problem[] = [];
    checkRecord(
      { resource: "films", file: "data/films/a.json", index: 3, value: { ...validRecords().films, title: "" } },
      problems,
    );
    expect(problems).toEqual([
      {
        code: "invalid_value",
        file: "data/films/a.json",
        index: 3,
        line: undefined,
        path: "title",
        message: 'must be 1..300 characters long (got 0); received ""',
      },
    ]);
  });

  test("a valid record's bytes are canonical: the spec's field order, whatever the input order", () => {
    const film = validRecords().films;
    const reversed = Object.fromEntries(Object.entries(film).reverse());
    const facts = checkRecord({ resource: "films", file: "f.json", index: 0, value: reversed }, []);
    expect(facts).toMatchObject({ kind: "plain", id: "film-1", json: JSON.stringify(film) });
  });
});
