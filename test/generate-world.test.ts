/**
 * The generator's world dataset (`npm run generate -- --markets world`, scripts/generate/world-markets.ts):
 * each country's cinemas and showtimes by the shows its screens play, so that at the world's 7.4M
 * showtimes the United States is the largest market with 2.0M (the world scale the markets decision
 * is measured at, docs/performance.md), every market holds a cinema from a small size on, and the
 * same size and seed plan the same cinemas. Its build is held by markets-build.test.ts.
 */
import { describe, expect, test } from "vitest";
import { countCinemas } from "../scripts/generate/cinemas.js";
import { countFilms, createFilms } from "../scripts/generate/films.js";
import { forkRandom } from "../scripts/generate/random.js";
import type { CinemaPlan } from "../scripts/generate/types.js";
import {
  DEFAULT_SHOWS_A_DAY,
  WORLD_MARKETS,
  worldCinemaCounts,
  worldCountries,
} from "../scripts/generate/world-markets.js";
import { planCinemas } from "../scripts/generate/write-dataset.js";

const WORLD = 7_400_000;

function plan(showtimes: number, seed = 1) {
  const films = createFilms(forkRandom(seed, 1), countFilms(showtimes));
  return planCinemas({ out: "", showtimes, seed, markets: "world" }, films);
}

/** Each market's showtimes in WORLD_MARKETS' order. */
function showtimesByMarket(cinemas: readonly CinemaPlan[], quotas: readonly number[]): number[] {
  const marketOf = new Map(WORLD_MARKETS.flatMap((m, at) => m.countries.map(([code]) => [code, at] as const)));
  const sums = WORLD_MARKETS.map(() => 0);
  for (const cinema of cinemas) sums[marketOf.get(cinema.country.code)!]! += quotas[cinema.index]!;
  return sums;
}

const showsOf = (market: (typeof WORLD_MARKETS)[number]) =>
  market.countries.reduce((n, [, screens]) => n + screens * (market.showsADay ?? DEFAULT_SHOWS_A_DAY), 0);

describe("the world dataset at 7.4M showtimes", () => {
  const { cinemas, quotas } = plan(WORLD);
  const byMarket = showtimesByMarket(cinemas, quotas);

  test("holds at least 12 markets and exactly the showtimes asked for", () => {
    expect(WORLD_MARKETS.length).toBeGreaterThanOrEqual(12);
    expect(byMarket.every((n) => n > 0)).toBe(true);
    expect(byMarket.reduce((a, b) => a + b, 0)).toBe(WORLD);
  });

  test("its largest market is the United States, with 2.0M showtimes (at most 2.05M)", () => {
    const largest = Math.max(...byMarket);
    expect(WORLD_MARKETS[byMarket.indexOf(largest)]!.id).toBe("us");
    expect(largest).toBeGreaterThanOrEqual(1_950_000);
    expect(largest).toBeLessThanOrEqual(2_050_000);
  });

  test("each market's share of the showtimes is its share of the shows, chains or none", () => {
    const total = WORLD_MARKETS.reduce((n, m) => n + showsOf(m), 0);
    WORLD_MARKETS.forEach((market, at) => expect(byMarket[at]! / WORLD).toBeCloseTo(showsOf(market) / total, 3));
  });

  test("the US's cinemas stand in its metros by population, over each one's area, as a real country's", () => {
    const us = cinemas.filter((c) => c.country.code === "US");
    const metroOf = (c: CinemaPlan) => c.record.id.split("-")[1]!;
    expect(new Set(us.map(metroOf)).size).toBe(49);
    // New York, the largest, holds about a tenth of the country's cinemas, not a third.
    const newYork = us.filter((c) => metroOf(c) === "nyc");
    expect(newYork.length / us.length).toBeGreaterThan(0.08);
    expect(newYork.length / us.length).toBeLessThan(0.13);
    // Around New York's centre, within 25 km, stand fewer than half of its cinemas.
    const km = (c: CinemaPlan) => {
      const { latitude, longitude } = c.record.location as { latitude: number; longitude: number };
      const dy = (latitude - 40.7128) * 111.2;
      const dx = (longitude + 74.006) * 111.2 * Math.cos((40.7128 * Math.PI) / 180);
      return Math.hypot(dx, dy);
    };
    const placed = newYork.filter((c) => (c.record.location as { latitude?: number }).latitude !== undefined);
    expect(placed.filter((c) => km(c) <= 25).length / placed.length).toBeLessThan(0.6);
    expect(Math.max(...placed.map(km))).toBeLessThan(50);
  });

  test("the same size and seed plan the same cinemas and showtimes; another seed does not", () => {
    const again = plan(WORLD);
    expect(again.quotas).toEqual(quotas);
    expect(again.cinemas.map((c) => c.record.id)).toEqual(cinemas.map((c) => c.record.id));
    expect(plan(WORLD, 2).quotas).not.toEqual(quotas);
  });
});

test("in a small world dataset, every market has a cinema and none plays more than its screens hold", () => {
  const { cinemas, quotas } = plan(364 * WORLD_MARKETS.length, 5);
  expect(showtimesByMarket(cinemas, quotas).every((n) => n > 0)).toBe(true);
  // About 364 a cinema, 26 a day: a cinema's screens hold 5 to 20 shows a day each.
  expect(Math.max(...quotas)).toBeLessThan(14 * 5 * 6);
});

test("a world dataset's countries get cinemas by their shows, one to each market's largest first", () => {
  const shows = worldCountries().map((country) => country.weight);
  const total = shows.reduce((a, b) => a + b, 0);
  const count = countCinemas(WORLD);
  const counts = worldCinemaCounts(count);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(count);
  counts.forEach((n, i) => expect(n / count).toBeCloseTo(shows[i]! / total, 3));
  const few = worldCinemaCounts(WORLD_MARKETS.length);
  expect(few).toEqual(WORLD_MARKETS.flatMap((m) => m.countries.map((_, i) => (i === 0 ? 1 : 0))));
});
