/**
 * `near` and `radiusKm` (decision: query parameters): one value, a point and a radius, given as two
 * parameters. A radius without a point is a 400 naming radiusKm.
 */
import { badParameter } from "../../respond/errors.js";
import type { Near } from "../../format/query/cinema-selection.js";
import type { SnapshotLists } from "../../format/read/snapshot.js";
import { DEFAULT_RADIUS_KM, MAX_RADIUS_KM, parseNear, parseRadiusKm } from "./query-values.js";
import type { FilterRow } from "./parameter.js";
import { NEAR_PATTERN, RADIUS_PATTERN } from "./value-patterns.js";

/**
 * The row of a place filter: parsed, bound and documented alike wherever it is taken; `select` says what it
 * narrows.
 */
export function placeParameter<S>(select: (near: Near, lists: SnapshotLists) => S): FilterRow<S> {
  return {
    key: "near",
    names: ["near", "radiusKm"],
    parse(values) {
      const near = values.get("near");
      const radius = values.get("radiusKm");
      if (near === undefined) {
        if (radius !== undefined)
          throw badParameter("radiusKm", "is given without near; send near=LATITUDE,LONGITUDE too");
        return undefined;
      }
      const point = parseNear(near);
      const place: Near = { ...point, radiusKm: radius === undefined ? DEFAULT_RADIUS_KM : parseRadiusKm(radius) };
      return place;
    },
    bind: (near: Near) => [near.latitude, near.longitude, near.radiusKm],
    openapi: [
      {
        component: "near",
        parameter: {
          name: "near",
          in: "query",
          description:
            "`LATITUDE,LONGITUDE` in decimal degrees (latitude -90..90, longitude -180..180, plain decimal " +
            "notation with at most 3 integer digits and 7 decimals, as the pattern says). Only cinemas (or " +
            "showtimes at cinemas) within `radiusKm` of the point, by great-circle distance on a sphere of radius " +
            "6371.0088 km; cinemas without coordinates never match. Cinemas near a point are ordered by distance, " +
            "then id, and carry `distanceKm`; showtimes keep their list order.",
          schema: { type: "string", pattern: NEAR_PATTERN },
          example: "52.5200,13.4050",
        },
      },
      {
        component: "radiusKm",
        parameter: {
          name: "radiusKm",
          in: "query",
          description:
            `The radius around \`near\` in km: greater than 0 and at most ${MAX_RADIUS_KM}, in plain decimal ` +
            "notation with at most 3 integer digits and 7 decimals (`0.5`, `25`, `500.0`; not `1e2` or " +
            `\`0.00000001\`), as the pattern says. Default ${DEFAULT_RADIUS_KM} when \`near\` is given; ` +
            "without `near` it is a 400.",
          // A string: a number schema lets a generator write 1e-7 or 17 digits, which the API refuses.
          schema: { type: "string", pattern: RADIUS_PATTERN, default: String(DEFAULT_RADIUS_KM) },
          example: "10",
        },
      },
    ],
    client: "near",
    select,
  };
}
