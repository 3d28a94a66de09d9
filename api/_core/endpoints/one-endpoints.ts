/**
 * The get-one endpoints (spec §4.4, §4.6; a showtime's: decision: query parameters): parameters
 * first (a 400 before a 404), then the id; a cinema or film is a stored body, a showtime is composed
 * from its block (showtimes have no stored get-one).
 */
import { composeShowtimeInto } from "../compose/compose-page.js";
import { recordNotFound } from "../respond/errors.js";
import type { Embedded } from "./parameters/query-values.js";
import { decodeId, ONE_TABLES, parseTableQuery } from "./parse-request.js";
import type { Endpoint } from "./serving.js";

/** `GET /v1/cinemas/{id}`, `GET /v1/films/{id}`: the stored record. */
export function storedOneEndpoint(resource: "cinemas" | "films"): Endpoint {
  const singular = resource === "cinemas" ? "cinema" : "film";
  return {
    answer([rawId], rawQuery, serving) {
      parseTableQuery(ONE_TABLES[resource], rawQuery);
      const id = decodeId(resource === "cinemas" ? "cinemaId" : "filmId", rawId!);
      const stored = serving.stored({ kind: "one", resource, id });
      if (!stored) throw recordNotFound(singular, id);
      return stored;
    },
  };
}

/** `GET /v1/showtimes/{id}`: composed from its block. */
export const showtimeOneEndpoint: Endpoint = {
  answer([rawId], rawQuery, serving) {
    const { include } = parseTableQuery<{ include?: Embedded[] }>(ONE_TABLES.showtimes, rawQuery).query;
    const id = decodeId("showtimeId", rawId!);
    const { lists, manifest } = serving.snapshot;
    const record = lists.showtimes.findById(id);
    if (record === undefined) throw recordNotFound("showtime", id);
    return serving.composed(`one|${id}|${include ?? ""}`, (out) =>
      composeShowtimeInto(lists, record, include, manifest.freshness, out),
    );
  },
};
