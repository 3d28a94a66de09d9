/** Stage 3: integrity across records: unique ids, and every showtime reference resolves. */
import type { ValidRecords } from "../validate/entries.js";
import type { Problem } from "../report/problems.js";
import type { Location } from "../load/read-source-file.js";
import { RESOURCES, type Resource } from "../validate/schemas.js";
import { findDuplicateIds } from "./showtime-ids.js";

/** Valid records whose ids are unique and whose references resolve. */
export interface LinkedRecords {
  records: ValidRecords;
}

function locationOf(where: Location): string {
  if (where.line !== undefined) return `${where.file}:${where.line}`;
  return where.index !== undefined ? `${where.file}[${where.index}]` : where.file;
}

const whereOf = (entry: Location) => ({ file: entry.file, line: entry.line, index: entry.index });

const duplicateProblem = (entry: Location & { id: string }, seen: Location): Problem => ({
  ...whereOf(entry),
  code: "duplicate_id",
  path: "id",
  message: `${JSON.stringify(entry.id)} is already used (first at ${locationOf(seen)})`,
});

/**
 * The ids of a resource, each with where it was first seen, reporting every id seen before. The map
 * is the id index itself. Showtimes, which nothing refers to, hold in it only the ids that repeat or
 * that an invalid record names (showtime-ids.ts): a map of 7.4M showtime ids cost ~440 MB.
 */
function indexIds(resource: Resource, records: ValidRecords, problems: Problem[]): Map<string, Location> {
  const report = (entry: Location & { id: string }, seen: Location) => problems.push(duplicateProblem(entry, seen));
  if (resource === "showtimes") {
    const named = records.invalid.flatMap((entry) => (entry.resource === "showtimes" && entry.id) || []);
    return findDuplicateIds(records.held ?? records.showtimes, named, report);
  }
  const first = new Map<string, Location>();
  for (const entry of records[resource]) {
    const seen = first.get(entry.id);
    if (seen) report(entry, seen);
    else first.set(entry.id, entry);
  }
  return first;
}

const SINGULAR: Record<Resource, string> = {
  cinemas: "cinema",
  films: "film",
  showtimes: "showtime",
  attributes: "attribute",
};

/**
 * Adds the ids of records that failed validation (their own problems are reported already): a
 * clash with any id is a duplicate, and a reference to them is not dangling.
 */
function indexInvalidIds(
  invalid: ValidRecords["invalid"],
  ids: Record<Resource, Map<string, Location>>,
  problems: Problem[],
): void {
  const first = new Map<string, ValidRecords["invalid"][number]>();
  for (const entry of invalid) {
    if (entry.id === undefined) continue;
    const key = `${entry.resource}\u0000${entry.id}`;
    const seen = first.get(key);
    if (seen || ids[entry.resource].has(entry.id)) {
      const where = seen ? ` (first at ${locationOf(seen)})` : " by a valid record";
      problems.push({
        ...whereOf(entry),
        code: "duplicate_id",
        path: "id",
        message: `${JSON.stringify(entry.id)} is already used${where}`,
      });
    } else {
      first.set(key, entry);
    }
  }
  for (const entry of first.values()) ids[entry.resource].set(entry.id!, entry);
}

export function linkRecords(records: ValidRecords, problems: Problem[]): LinkedRecords {
  const ids = Object.fromEntries(RESOURCES.map((r) => [r, indexIds(r, records, problems)])) as Record<
    Resource,
    Map<string, Location>
  >;
  indexInvalidIds(records.invalid, ids, problems);
  const check = (entry: Location, path: string, target: Resource, id: string) => {
    if (ids[target].has(id)) return;
    problems.push({
      ...whereOf(entry),
      code: "dangling_reference",
      path,
      message: `refers to ${SINGULAR[target]} ${JSON.stringify(id)}, which does not exist`,
    });
  };
  for (const showtime of records.held ?? records.showtimes) {
    check(showtime, "cinemaId", "cinemas", showtime.cinemaId);
    check(showtime, "filmId", "films", showtime.filmId);
    showtime.attributeIds.forEach((id, i) => check(showtime, `attributeIds[${i}]`, "attributes", id));
  }
  // The references an invalid showtime makes, where they are strings: one run reports them too.
  for (const entry of records.invalid) {
    if (entry.resource !== "showtimes") continue;
    if (entry.cinemaId !== undefined) check(entry, "cinemaId", "cinemas", entry.cinemaId);
    if (entry.filmId !== undefined) check(entry, "filmId", "films", entry.filmId);
    for (const [i, id] of entry.attributeIds ?? []) check(entry, `attributeIds[${i}]`, "attributes", id);
  }
  return { records };
}
