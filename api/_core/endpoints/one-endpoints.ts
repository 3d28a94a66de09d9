/**
 * The get-one endpoints (spec §4.4, §4.6; a showtime's: decision: query parameters): parameters
 * first (a 400 before a 404), then the id, the last of the route's path ids (routes.ts); a cinema
 * or film is a stored body, a showtime is composed from its block (showtimes have no stored get-one).
 */
import { composeShowtimeInto } from "../compose/compose-page.js";
import type { Embedded } from "./parameters/query-values.js";
import { parseTableQuery } from "./parse-request.js";
import { decodePathIds, notFoundFor, requireRecords, type PathId, type RouteEndpoint } from "./path-ids.js";

/** A get-one route's own id, the last of its path, and the records it names within (any before it). */
function ownId(ids: readonly PathId[]): { own: PathId; parents: readonly PathId[] } {
  const own = ids.at(-1);
  if (!own) throw new Error("a get-one route names its record's id in its path");
  return { own, parents: ids.slice(0, -1) };
}

/** `GET /v1/cinemas/{cinemaId}`, `GET /v1/films/{filmId}`: the stored record. */
export function storedOneEndpoint(resource: "cinemas" | "films"): RouteEndpoint {
  return (route) => {
    const { own, parents } = ownId(route.ids);
    return {
      answer(rawIds, rawQuery, serving) {
        parseTableQuery(route.table, rawQuery);
        const ids = decodePathIds(route.ids, rawIds);
        requireRecords(() => serving.snapshot.lists, parents, ids);
        const id = ids.at(-1)!;
        const stored = serving.stored({ kind: "one", resource, id });
        if (!stored) throw notFoundFor(own, id);
        return stored;
      },
    };
  };
}

/** `GET /v1/showtimes/{showtimeId}`: composed from its block. */
export const showtimeOneEndpoint: RouteEndpoint = (route) => {
  const { own, parents } = ownId(route.ids);
  return {
    answer(rawIds, rawQuery, serving) {
      const { include } = parseTableQuery<{ include?: Embedded[] }>(route.table, rawQuery).query;
      const ids = decodePathIds(route.ids, rawIds);
      const { lists, manifest } = serving.snapshot;
      requireRecords(() => lists, parents, ids);
      const id = ids.at(-1)!;
      const record = lists.showtimes.findById(id);
      if (record === undefined) throw notFoundFor(own, id);
      return serving.composed(`one|${id}|${include ?? ""}`, (out) =>
        composeShowtimeInto(lists, record, include, manifest.freshness, out),
      );
    },
  };
};
