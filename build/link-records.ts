/** Stage 3: integrity across records: unique ids, and every showtime reference resolves. */
import type { BuildContext, Entry } from "./context.js";
import type { Problem } from "./problems.js";
import { RESOURCES, type Resource } from "./schemas.js";

function locationOf(entry: Entry): string {
  if (entry.line !== undefined) return `${entry.file}:${entry.line}`;
  return entry.index !== undefined ? `${entry.file}[${entry.index}]` : entry.file;
}

function whereOf(entry: Entry) {
  return { file: entry.file, line: entry.line, index: entry.index };
}

/** Indexes a resource by id, reporting every id seen before (with where it was first seen). */
function indexIds(entries: Entry[], problems: Problem[]): Map<string, Entry> {
  const byId = new Map<string, Entry>();
  for (const entry of entries) {
    const first = byId.get(entry.id);
    if (first) {
      problems.push({
        ...whereOf(entry), code: "duplicate_id", path: "id",
        message: `${JSON.stringify(entry.id)} is already used (first at ${locationOf(first)})`,
      });
    } else {
      byId.set(entry.id, entry);
    }
  }
  return byId;
}

const SINGULAR: Record<Resource, string> = { cinemas: "cinema", films: "film", showtimes: "showtime", attributes: "attribute" };

function checkReference(entry: Entry, path: string, target: Resource, id: string, ids: Map<string, Entry>, problems: Problem[]) {
  if (ids.has(id)) return;
  problems.push({
    ...whereOf(entry), code: "dangling_reference", path,
    message: `refers to ${SINGULAR[target]} ${JSON.stringify(id)}, which does not exist`,
  });
}

export async function linkRecords(ctx: BuildContext): Promise<void> {
  const ids = {} as Record<Resource, Map<string, Entry>>;
  for (const resource of RESOURCES) ids[resource] = indexIds(ctx.entries[resource], ctx.problems);
  for (const showtime of ctx.entries.showtimes) {
    checkReference(showtime, "cinemaId", "cinemas", showtime.cinemaId!, ids.cinemas, ctx.problems);
    checkReference(showtime, "filmId", "films", showtime.filmId!, ids.films, ctx.problems);
    showtime.attributeIds!.forEach((id, i) =>
      checkReference(showtime, `attributeIds[${i}]`, "attributes", id, ids.attributes, ctx.problems),
    );
    // Nothing later needs them, and at millions of showtimes the arrays are worth freeing.
    showtime.attributeIds = undefined;
  }
}
