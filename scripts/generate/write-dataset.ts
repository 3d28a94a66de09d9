/**
 * Writes a generated dataset into a data folder: attributes, films, cinemas by country, showtimes by
 * country in NDJSON parts; with `markets: "world"`, the world's countries and their markets.json
 * (world-markets.ts). Without it the bytes are those this generator always wrote for a seed and size.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ATTRIBUTES } from "./attributes.js";
import { countCinemas, createCinemas } from "./cinemas.js";
import { countFilms, createFilms } from "./films.js";
import { createNdjsonSink } from "./ndjson-sink.js";
import { apportion, forkRandom } from "./random.js";
import { renderShowtimes } from "./schedule.js";
import type { CinemaPlan } from "./types.js";
import {
  WORLD_ATTRIBUTES,
  worldCinemaCounts,
  worldCountries,
  worldMarketsJson,
  worldShowtimeQuotas,
} from "./world-markets.js";

const LINES_PER_FILE = 100_000;
/** Where a data folder defines its markets (the build's load/markets-source.ts). */
export const MARKETS_FILE = "markets.json";

export interface DatasetOptions {
  out: string;
  showtimes: number;
  seed: number;
  /** The world's markets and countries instead of places.ts's seven countries in one market. */
  markets?: "world";
}

function writeJson(path: string, records: readonly unknown[]): void {
  writeFileSync(path, `${JSON.stringify(records, null, 2)}\n`);
}

function groupByCountry(cinemas: readonly CinemaPlan[]): Map<string, CinemaPlan[]> {
  const groups = new Map<string, CinemaPlan[]>();
  for (const cinema of cinemas) {
    const code = cinema.country.code.toLowerCase();
    const group = groups.get(code);
    if (group) group.push(cinema);
    else groups.set(code, [cinema]);
  }
  return groups;
}

/**
 * The cinemas, and each one's showtimes: bigger cinemas get proportionally more (rounding the running
 * sum makes the total exactly N). A world's countries get cinemas and showtimes by their shows
 * (world-markets.ts), its cinemas within a country by their screens.
 */
export function planCinemas({ showtimes, seed, markets }: DatasetOptions, films: ReturnType<typeof createFilms>) {
  const count = countCinemas(showtimes);
  if (markets === "world") {
    const cinemas = createCinemas(seed, count, films, worldCountries(), worldCinemaCounts(count));
    return { cinemas, quotas: worldShowtimeQuotas(showtimes, cinemas) };
  }
  const cinemas = createCinemas(seed, count, films);
  const quotas = apportion(
    showtimes,
    cinemas.map((cinema) => cinema.screens.length),
  );
  return { cinemas, quotas };
}

/** Writes the dataset into `out`, whose resource folders exist and are empty. */
export async function writeDataset(options: DatasetOptions) {
  const { out, seed } = options;
  const films = createFilms(forkRandom(seed, 1), countFilms(options.showtimes));
  const { cinemas, quotas } = planCinemas(options, films);
  const byCountry = groupByCountry(cinemas);
  const world = options.markets === "world";
  const attributes = world ? WORLD_ATTRIBUTES : ATTRIBUTES;
  writeJson(join(out, "attributes", "attributes.json"), attributes);
  writeJson(
    join(out, "films", "films.json"),
    films.map((film) => film.record),
  );
  for (const [code, group] of byCountry)
    writeJson(
      join(out, "cinemas", `${code}.json`),
      group.map((cinema) => cinema.record),
    );
  if (world) writeJson(join(out, MARKETS_FILE), worldMarketsJson());
  const fallback = films.slice(0, 3);
  let files = 0;
  for (const [code, group] of byCountry) {
    const sink = createNdjsonSink(join(out, "showtimes", code), LINES_PER_FILE);
    for (const cinema of group) {
      await sink.writeLines(
        renderShowtimes(forkRandom(seed, 1_000 + cinema.index), cinema, quotas[cinema.index]!, fallback),
      );
    }
    files += await sink.close();
  }
  return { cinemas: cinemas.length, films: films.length, files, attributes: attributes.length };
}
