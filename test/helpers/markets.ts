/**
 * Markets for the build's tests (decision: markets): a generated dataset spread over countries, the
 * records a market holds by the design's rule (written here from the rule, sharing no code with the
 * build), markets.json in a data folder, and every record a snapshot's list serves.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Market } from "../../api/_core/format/layout/market-rules.js";
import type { ListResource } from "../../api/_core/format/layout/manifest.js";
import { PageBuffer } from "../../api/_core/format/primitives/page-buffer.js";
import { FreshnessFold } from "../../api/_core/format/read/freshness.js";
import type { Snapshot } from "../../api/_core/format/read/snapshot.js";
import type { Cinema, Dataset } from "./dataset.js";

/** The dataset with its cinemas' countries taken from `countries` in turn (the generator gives GB and DE only). */
export function spreadCountries(dataset: Dataset, countries: readonly string[]): Dataset {
  const cinemas = dataset.cinemas.map(
    (cinema, i): Cinema => ({
      ...cinema,
      location: { ...cinema.location, countryCode: countries[i % countries.length] },
    }),
  );
  return { ...dataset, cinemas };
}

/** What a market holds: its countries' cinemas, their showtimes, the films showing there, every attribute. */
export function marketDataset(dataset: Dataset, market: Pick<Market, "countries">): Dataset {
  const cinemas = dataset.cinemas.filter((c) => market.countries.includes(c.location.countryCode as string));
  const cinemaIds = new Set(cinemas.map((c) => c.id));
  const showtimes = dataset.showtimes.filter((s) => cinemaIds.has(s.cinemaId));
  const filmIds = new Set(showtimes.map((s) => s.filmId));
  return { cinemas, films: dataset.films.filter((f) => filmIds.has(f.id)), attributes: dataset.attributes, showtimes };
}

/** Writes markets.json at the top of a data folder, as an operator would. */
export function writeMarkets(dataDir: string, markets: unknown): void {
  writeFileSync(path.join(dataDir, "markets.json"), `${JSON.stringify(markets, null, 2)}\n`);
}

/** Every record of one of the snapshot's lists, in list order, as the API serves it. */
export function servedRecords(snapshot: Snapshot, resource: ListResource): unknown[] {
  const { lists } = snapshot;
  const list = lists.list(resource);
  const out = new PageBuffer();
  list.render(0, list.length, out, new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated));
  return JSON.parse(`[${out.finish().toString("utf8")}]`) as unknown[];
}
