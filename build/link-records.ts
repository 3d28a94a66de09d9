/** Stage 3: integrity across records: unique ids, and every showtime reference resolves. */
import type { PlainEntry, ShowtimeEntry, ValidRecords } from "./entries.js";
import type { Problem } from "./problems.js";
import type { Location } from "./read-source-file.js";
import { RESOURCES, type Resource } from "./schemas.js";

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

export function linkRecords(records: ValidRecords, problems: Problem[]): LinkedRecords {
  const ids = Object.fromEntries(RESOURCES.map((r) => [r, indexIds(records[r], problems)])) as Record<
    Resource,
    Set<string>
  >;
  const check = (entry: ShowtimeEntry, path: string, target: Resource, id: string) => {
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
  return { records };
}
