/**
 * Checks one source record against its schema (spec §2) and, when valid, takes from it what the
 * snapshot needs: the facts below. Shared by validation on the main thread and in workers.
 */
import type { z } from "zod";
import { MAX_RECORD_BYTES } from "../../api/_core/format/layout/showtime-fields.js";
import { clipText } from "../../api/_core/respond/text.js";
import { closestField, fieldsAt } from "./field-names.js";
import { formatPath, type Problem } from "../report/problems.js";
import type { SourceRecord } from "../load/read-source-file.js";
import { SCHEMAS, type Cinema, type Showtime } from "./schemas.js";
import { SHOWTIME_SHAPE, type ShowtimeShape } from "./showtime-shape.js";

/** A cinema, film or attribute: its canonical JSON and the fields lists and lookups read. */
export interface PlainFacts {
  kind: "plain";
  id: string;
  json: string;
  observedAt?: string;
  sourceUpdatedAt?: string;
  latitude?: number;
  longitude?: number;
  countryCode?: string;
  timeZone?: string;
}

/**
 * A showtime as the validator gives it back, every field of its shape table: the snapshot stores
 * showtimes value by value (showtime-shape.ts says where each value is and how it is held).
 */
export interface ShowtimeFacts {
  kind: "showtime";
  showtime: Showtime;
}

export type RecordFacts = PlainFacts | ShowtimeFacts;

/**
 * What an invalid record still says about other records: its id and its references, where they
 * are strings. Cross-record checks use them, so one run reports every problem of every record
 * (a duplicate id or a dangling reference of a record that also fails a field rule).
 */
export interface RecordIdentity {
  resource: SourceRecord["resource"];
  id?: string;
  cinemaId?: string;
  filmId?: string;
  /** Attribute ids that are strings, with their places in the list. */
  attributeIds?: Array<[index: number, id: string]>;
}

/** The identity of a record that failed validation, or undefined when it holds no id or reference. */
export function identityOf(source: SourceRecord): RecordIdentity | undefined {
  const value = source.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const identity: RecordIdentity = { resource: source.resource };
  if (text(record.id)) identity.id = text(record.id);
  if (source.resource === "showtimes") {
    if (text(record.cinemaId)) identity.cinemaId = text(record.cinemaId);
    if (text(record.filmId)) identity.filmId = text(record.filmId);
    if (Array.isArray(record.attributeIds)) {
      identity.attributeIds = record.attributeIds.flatMap(
        (id, i): Array<[number, string]> => (text(id) ? [[i, id as string]] : []),
      );
    }
  }
  return identity.id || identity.cinemaId || identity.filmId || identity.attributeIds?.length ? identity : undefined;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = root;
  for (const key of path)
    value = value != null && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** Turns one zod issue into problems (an unrecognized_keys issue names several fields). */
function problemsOfIssue(issue: z.core.$ZodIssue, source: SourceRecord, schema: z.ZodType): Problem[] {
  const where = { file: source.file, line: source.line, index: source.index };
  if (issue.code === "unrecognized_keys") {
    const known = fieldsAt(schema, issue.path);
    return issue.keys.map((key) => {
      const meant = closestField(key, known);
      return {
        ...where,
        code: "unknown_field" as const,
        path: formatPath([...issue.path, key]),
        message: meant
          ? `is not a field of this record: did you mean ${meant}?`
          : "is not a field of this record (check the spelling)",
      };
    });
  }
  const path = formatPath(issue.path);
  const actual = valueAt(source.value, issue.path);
  // Checked for every issue code: a missing enum field (kind) fails as invalid_value, not invalid_type.
  if (actual === undefined) return [{ ...where, code: "missing_field", path, message: "is required" }];
  if (issue.code === "invalid_type") {
    const expected = issue.expected === "int" ? "whole number" : issue.expected;
    const article = /^[aeiou]/.test(expected) ? "an" : "a";
    return [
      { ...where, code: "invalid_type", path, message: `must be ${article} ${expected} (got ${describeType(actual)})` },
    ];
  }
  // The value received, where it is text: a date-time problem is easier to fix when it is shown.
  // Cut by code point (clipText), never inside a surrogate pair.
  const received = typeof actual === "string" ? `; received ${JSON.stringify(clipText(actual, 61))}` : "";
  return [{ ...where, code: "invalid_value", path, message: `${issue.message}${received}` }];
}

function factsOf(source: SourceRecord, record: Record<string, unknown>, json: string): RecordFacts {
  if (source.resource === "showtimes") return { kind: "showtime", showtime: record as Showtime };
  const provenance = record.provenance as Showtime["provenance"] | undefined;
  const location = (record as Partial<Cinema>).location;
  return {
    kind: "plain",
    id: record.id as string,
    json,
    observedAt: provenance?.observedAt,
    sourceUpdatedAt: provenance?.sourceUpdatedAt,
    latitude: location?.latitude,
    longitude: location?.longitude,
    countryCode: location?.countryCode,
    timeZone: location?.timeZone,
  };
}

/**
 * Checks one source record: its facts, or its problems pushed. `shape`: the showtimes' (a worker's is made from the
 * tables it is sent).
 */
export function checkRecord(
  source: SourceRecord,
  problems: Problem[],
  shape: ShowtimeShape = SHOWTIME_SHAPE,
): RecordFacts | undefined {
  if (source.value === null || typeof source.value !== "object" || Array.isArray(source.value)) {
    const where = { file: source.file, line: source.line, index: source.index };
    problems.push({
      ...where,
      code: "not_an_object",
      path: "",
      message: `must be a JSON object (got ${describeType(source.value)})`,
    });
    return undefined;
  }
  const schema = source.resource === "showtimes" ? shape.schema : SCHEMAS[source.resource];
  const result = schema.safeParse(source.value);
  if (!result.success) {
    for (const issue of result.error.issues) problems.push(...problemsOfIssue(issue, source, schema));
    return undefined;
  }
  // The schema's key order is the output's field order, so the bytes are canonical.
  const json = JSON.stringify(result.data);
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_RECORD_BYTES) {
    problems.push({
      file: source.file,
      line: source.line,
      index: source.index,
      code: "record_too_large",
      path: "",
      message: `is ${bytes} bytes as JSON; at most ${MAX_RECORD_BYTES} are allowed so every page fits a response`,
    });
    return undefined;
  }
  return factsOf(source, result.data as Record<string, unknown>, json);
}
