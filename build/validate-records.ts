/** Stage 2: validate every record against its schema; keep the valid ones as compact entries. */
import type { z } from "zod";
import { instantKeyOf } from "../api/_core/date-time.js";
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { BuildContext, Entry, SourceRecord } from "./context.js";
import type { SourceFile } from "./read-source-file.js";
import { formatPath, type Problem } from "./problems.js";
import type { RecordArena } from "./record-arena.js";
import { SCHEMAS, type Provenance } from "./schemas.js";

/** 100 records of this size stay well under Vercel's 4.5 MB response limit (v1 issue, part 4). */
export const MAX_RECORD_BYTES = 40_000;

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = root;
  for (const key of path) value = value != null && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** Turns one zod issue into problems (an unrecognized_keys issue names several fields). */
function problemsOfIssue(issue: z.core.$ZodIssue, source: SourceRecord): Problem[] {
  const where = { file: source.file, line: source.line, index: source.index };
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({
      ...where,
      code: "unknown_field" as const,
      path: formatPath([...issue.path, key]),
      message: "is not a field of this record (check the spelling)",
    }));
  }
  const path = formatPath(issue.path);
  const actual = valueAt(source.value, issue.path);
  // Checked for every issue code: a missing enum field (kind) fails as invalid_value, not invalid_type.
  if (actual === undefined) return [{ ...where, code: "missing_field", path, message: "is required" }];
  if (issue.code === "invalid_type") {
    const expected = issue.expected === "int" ? "whole number" : issue.expected;
    const article = /^[aeiou]/.test(expected) ? "an" : "a";
    return [{ ...where, code: "invalid_type", path, message: `must be ${article} ${expected} (got ${describeType(actual)})` }];
  }
  return [{ ...where, code: "invalid_value", path, message: issue.message }];
}



/**
 * One shared copy of each repeated value: millions of showtimes name a few thousand cinemas,
 * start at a few thousand instants and carry a few thousand provenance times. Every copy saved
 * is heap the garbage collector no longer walks (at 2M showtimes it was most of the build).
 */
export class Interner {
  private readonly strings = new Map<string, string>();
  private readonly times = new Map<string, [string, string]>();
  private readonly lists = new Map<string, string[]>();

  string(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  /** A list of strings, shared by every record listing the same ones (showtimes' attribute sets). */
  list(values: string[]): string[] {
    const key = JSON.stringify(values);
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = values.map((value) => this.string(value))));
    return list;
  }

  /** A date-time as [instant key, text as written], shared by every record with the same text. */
  time(text: string): [string, string] {
    let time = this.times.get(text);
    if (!time) this.times.set(text, (time = [this.string(instantKeyOf(text)), text]));
    return time;
  }
}

/** What an entry is made of, as plain values: a validation worker sends these to the main thread. */
export interface RecordFacts {
  id: string;
  /** Handle of the record's canonical JSON in an arena. */
  handle: number;
  startsAt?: string;
  observedAt?: string;
  sourceUpdatedAt?: string;
  line?: number;
  index?: number;
  cinemaId?: string;
  filmId?: string;
  attributeIds?: string[];
}

/** The facts of a valid record (as the schema returned it) stored under `handle`. */
export function factsOf(source: SourceRecord, record: Record<string, unknown>, handle: number): RecordFacts {
  const provenance = record.provenance as Provenance | undefined;
  const facts: RecordFacts = { id: record.id as string, handle, line: source.line, index: source.index };
  if (provenance) {
    facts.observedAt = provenance.observedAt;
    facts.sourceUpdatedAt = provenance.sourceUpdatedAt;
  }
  if (source.resource === "showtimes") {
    facts.startsAt = record.startsAt as string;
    facts.cinemaId = record.cinemaId as string;
    facts.filmId = record.filmId as string;
    facts.attributeIds = record.attributeIds as string[];
  }
  return facts;
}

/** The compact entry of a record, its repeated values shared through the interner. */
export function entryOf(facts: RecordFacts, file: string, interner: Interner): Entry {
  const time = (text: string | undefined) => (text === undefined ? undefined : interner.time(text));
  const string = (text: string | undefined) => (text === undefined ? undefined : interner.string(text));
  return newEntry(facts.id, facts.handle, time(facts.startsAt)?.[0], time(facts.observedAt), time(facts.sourceUpdatedAt), file,
    facts.line, facts.index, string(facts.cinemaId), string(facts.filmId), facts.attributeIds && interner.list(facts.attributeIds));
}

/** An entry from its fields, every one in one literal: one fixed shape, with no overflow property store per record. */
export function newEntry(
  id: string, record: number, instant: string | undefined, observed: [string, string] | undefined, updated: [string, string] | undefined,
  file: string, line: number | undefined, index: number | undefined, cinemaId: string | undefined, filmId: string | undefined,
  attributeIds: string[] | undefined,
): Entry {
  return { id, record, instant, observed, updated, file, line, index, cinemaId, filmId, attributeIds };
}

/** Checks one source record: its parsed value and canonical JSON, or its problems pushed. */
export function checkRecord(source: SourceRecord, problems: Problem[]): { record: Record<string, unknown>; json: string } | undefined {
  if (source.value === null || typeof source.value !== "object" || Array.isArray(source.value)) {
    const where = { file: source.file, line: source.line, index: source.index };
    problems.push({ ...where, code: "not_an_object", path: "", message: `must be a JSON object (got ${describeType(source.value)})` });
    return undefined;
  }
  const result = SCHEMAS[source.resource].safeParse(source.value);
  if (!result.success) {
    for (const issue of result.error.issues) problems.push(...problemsOfIssue(issue, source));
    return undefined;
  }
  // The schema's key order is the output's field order, so the bytes are canonical.
  const json = JSON.stringify(result.data);
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_RECORD_BYTES) {
    problems.push({
      file: source.file, line: source.line, index: source.index, code: "record_too_large", path: "",
      message: `is ${bytes} bytes as JSON; at most ${MAX_RECORD_BYTES} are allowed so every page fits a response`,
    });
    return undefined;
  }
  return { record: result.data as Record<string, unknown>, json };
}

/** Validates one source record, returning its entry (its bytes stored in `arena`) or pushing its problems. */
export function validateRecord(source: SourceRecord, problems: Problem[], arena: RecordArena, interner = new Interner()): Entry | undefined {
  const checked = checkRecord(source, problems);
  if (!checked) return undefined;
  return entryOf(factsOf(source, checked.record, arena.add(checked.json)), source.file, interner);
}

/** Sources smaller than this validate on the main thread: starting workers would cost more. */
const PARALLEL_MIN_BYTES = 32 * 2 ** 20;

export async function validateRecords(ctx: BuildContext): Promise<void> {
  if (!ctx.sources || !ctx.sourceFiles) throw new Error("validateRecords runs after loadSources");
  const interner = new Interner();
  // Unset: workers for large inputs only. A number: that many workers (0: none), whatever the size.
  const workers = ctx.validateWorkers ?? (totalBytes(ctx.sourceFiles) >= PARALLEL_MIN_BYTES ? availableParallelism() : 0);
  if (workers > 0 && ctx.sourceFiles.length > 1) {
    // Loaded on demand: it bundles the worker with esbuild, which small builds never need.
    const { bundleValidationWorker, validateInWorkers } = await import("./validate-parallel.js");
    const script = await bundleValidationWorker();
    if (script) return validateInWorkers(ctx, script, workers, interner);
  }
  let count = 0;
  for await (const source of ctx.sources) {
    const entry = validateRecord(source, ctx.problems, ctx.arena, interner);
    if (entry) ctx.entries[source.resource].push(entry);
    if (++count % 50_000 === 0) ctx.onProgress?.("validate", count);
  }
}

function totalBytes(files: readonly SourceFile[]): number {
  return files.reduce((sum, { file }) => {
    try {
      return sum + statSync(file).size;
    } catch {
      return sum; // unreadable: reported when it is read
    }
  }, 0);
}
