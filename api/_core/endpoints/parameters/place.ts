/**
 * `near` and `radiusKm` (decision: query parameters): one value, a point and a radius, given as two
 * parameters. A radius without a point is a 400 naming radiusKm.
 */
import { badParameter } from "../../respond/errors.js";
import type { Near } from "../../format/query/cinema-selection.js";
import type { SnapshotLists } from "../../format/read/snapshot.js";
import { DEFAULT_RADIUS_KM, MAX_RADIUS_KM, parseNear, parseRadiusKm } from "./query-values.js";
import type { FilterRow } from "./parameter.js";

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
            "notation, at most 7 decimals). Only cinemas (or showtimes at cinemas) within `radiusKm` of the " +
            "point, by great-circle distance on a sphere of radius 6371.0088 km; cinemas without coordinates " +
            "never match. Cinemas near a point are ordered by distance, then id, and carry `distanceKm`; " +
            "showtimes keep their list order.",
          schema: { type: "string", pattern: "^-?\\d{1,3}(\\.\\d{1,7})?,-?\\d{1,3}(\\.\\d{1,7})?$" },
          example: "52.5200,13.4050",
        },
      },
      {
        component: "radiusKm",
        parameter: {
          name: "radiusKm",
          in: "query",
          description:
            `The radius around \`near\` in km: greater than 0 and at most ${MAX_RADIUS_KM}, plain decimal ` +
            `notation. Default ${DEFAULT_RADIUS_KM} when \`near\` is given; without \`near\` it is a 400.`,
          schema: { type: "number", exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, default: DEFAULT_RADIUS_KM },
        },
      },
    ],
    client: "near",
    select,
  };
}
