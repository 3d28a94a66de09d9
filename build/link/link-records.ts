/** Stage 3: integrity across records: unique ids, and every showtime reference resolves. */
import type { PlainEntry, ShowtimeEntry, ValidRecords } from "../validate/entries.js";
import type { Problem } from "../report/problems.js";
import type { Location } from "../load/read-source-file.js";
import { RESOURCES, type Resource } from "../validate/schemas.js";

/** Valid records whose ids are unique and whose references resolve. */
export interface LinkedRecords {
  records: ValidRecords;
}

function locationOf(where: Location): string {
  if (where.line !== undefined) return `${where.file}:${where.line}`;
  return where.index !== undefined ? `${where.file}[${where.index}]` : where.file;
}

const whereOf = (entry: Location) => ({ file: entry.file, line: entry.line, index: entry.index });

/** The ids of a resource, reporting every id seen before (with where it was first seen). */
function indexIds(entries: ReadonlyArray<PlainEntry | ShowtimeEntry>, problems: Problem[]): Set<string> {
  const first = new Map<string, Location>();
  for (const entry of entries) {
    const seen = first.get(entry.id);
    if (seen) {
      problems.push({
        ...whereOf(entry),
        code: "duplicate_id",
        path: "id",
        message: `${JSON.stringify(entry.id)} is already used (first at ${locationOf(seen)})`,
      });
    } else {
      first.set(entry.id, entry);
    }
  }
  return new Set(first.keys());
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
  ids: Record<Resource, Set<string>>,
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
  for (const entry of first.values()) ids[entry.resource].add(entry.id!);
}

export function linkRecords(records: ValidRecords, problems: Problem[]): LinkedRecords {
  const ids = Object.fromEntries(RESOURCES.map((r) => [r, indexIds(records[r], problems)])) as Record<
    Resource,
    Set<string>
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
  for (const showtime of records.showtimes) {
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
