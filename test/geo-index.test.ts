/**
 * The grid that finds cinemas near a point (decision: query parameters) against a brute-force
 * haversine over every cinema: anywhere on Earth, across the antimeridian and at the poles, for
 * any radius up to 500 km, it finds exactly the cinemas within the radius.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { GeoIndex, haversineKm } from "../api/_core/format/query/cinema-selection.js";

const latitude = fc.double({ min: -90, max: 90, noNaN: true });
const longitude = fc.double({ min: -180, max: 180, noNaN: true });
const place = fc.tuple(latitude, longitude);
// Clustered near the point being asked about as well as anywhere: most radii then hold some.
const cinemas = (near: [number, number]) =>
  fc.array(
    fc.oneof(
      place,
      fc
        .tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }))
        .map(([dLat, dLon]): [number, number] => [
          Math.max(-90, Math.min(90, near[0] + dLat)),
          ((near[1] + dLon + 540) % 360) - 180,
        ]),
      fc.constant<[number, number]>([Number.NaN, Number.NaN]),
    ),
    { maxLength: 60 },
  );

/** The point `km` away from `from` along `bearing` degrees (spherical destination formula). */
function destination(from: [number, number], bearing: number, km: number): [number, number] {
  const rad = Math.PI / 180;
  const d = km / 6371.0088;
  const [lat1, lon1, b] = [from[0] * rad, from[1] * rad, bearing * rad];
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lon2 =
    lon1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return [lat2 / rad, ((((lon2 / rad + 540) % 360) + 360) % 360) - 180];
}

const points = fc.oneof(place, fc.tuple(fc.constantFrom(89.9, -89.9, 0, 65), fc.constantFrom(179.99, -179.99, 0)));

test("finds exactly the cinemas within the radius, wherever the point", () => {
  fc.assert(
    fc.property(
      points.chain((near) =>
        fc.tuple(fc.constant(near), cinemas(near), fc.double({ min: 0.001, max: 500, noNaN: true })),
      ),
      ([near, scattered, radiusKm]) => {
        // And cinemas just inside and just outside the radius, east, west, north and south: the edges of the search.
        const edges = [0, 90, 180, 270].flatMap((bearing) => [
          destination(near, bearing, radiusKm * 0.999),
          destination(near, bearing, radiusKm * 1.001),
        ]);
        const located = [...scattered, ...edges];
        const geo = Float64Array.from(located.flat());
        const found = new GeoIndex(geo)
          .within({ latitude: near[0], longitude: near[1], radiusKm })
          .map((m) => m.index)
          .sort((a, b) => a - b);
        const expected = located.flatMap(([lat, lon], i) =>
          !Number.isNaN(lat) && haversineKm(near[0], near[1], lat, lon) <= radiusKm ? [i] : [],
        );
        expect(found).toEqual(expected);
      },
    ),
    { numRuns: 400, seed: 20_261_127 },
  );
});
