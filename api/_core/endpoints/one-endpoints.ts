/**
 * The get-one endpoints (spec §4.4, §4.6; a showtime's: decision: query parameters): parameters
 * first (a 400 before a 404), then the id; a cinema or film is a stored body, a showtime is composed
 * from its block (showtimes have no stored get-one).
 */
import { composeShowtimeInto } from "../compose/compose-page.js";
import { ApiError } from "../respond/errors.js";
import { clipText } from "../respond/text.js";
import type { Embedded } from "./parameters/query-values.js";
import { decodeId, ONE_TABLES, parseTableQuery } from "./parse-request.js";
import type { Endpoint } from "./serving.js";

/** An unknown id echoed in a 404: whole up to the spec's 160, so the message stays within 300. */
const MAX_ID_ECHO = 160;

function notFound(singular: string, id: string): ApiError {
  return new ApiError(404, "not_found", `No ${singular} has the id ${JSON.stringify(clipText(id, MAX_ID_ECHO))}.`);
}

/** `GET /v1/cinemas/{id}`, `GET /v1/films/{id}`: the stored record. */
export function storedOneEndpoint(resource: "cinemas" | "films"): Endpoint {
  const singular = resource === "cinemas" ? "cinema" : "film";
  return {
    answer([rawId], rawQuery, serving) {
      parseTableQuery(ONE_TABLES[resource], rawQuery);
      const id = decodeId(resource, rawId!);
      const stored = serving.stored({ kind: "one", resource, id });
      if (!stored) throw notFound(singular, id);
      return stored;
    },
  };
}

/** `GET /v1/showtimes/{id}`: composed from its block. */
export const showtimeOneEndpoint: Endpoint = {
  answer([rawId], rawQuery, serving) {
    const { include } = parseTableQuery<{ include?: Embedded[] }>(ONE_TABLES.showtimes, rawQuery).query;
    const id = decodeId("showtimes", rawId!);
    const { lists, manifest } = serving.snapshot;
    const record = lists.showtimes.findById(id);
    if (record === undefined) throw notFound("showtime", id);
    return serving.composed(`one|${id}|${include ?? ""}`, (out) =>
      composeShowtimeInto(lists, record, include, manifest.freshness, out),
    );
  },
};
