/**
 * Stage 4: the linked records split into markets (decision: markets). A market holds the cinemas of
 * its countries, the showtimes at those cinemas, the films with at least one showtime there, and the
 * whole attribute catalogue (small and closed: an attribute id means the same in every market). A
 * cinema whose country is in no market is a problem; a film showing in no market is left out and
 * counted. Without markets.json the records are one market, untouched.
 */
import type { Market } from "../../api/_core/format/layout/market-rules.js";
import type { LinkedRecords } from "../link/link-records.js";
import type { Problem } from "../report/problems.js";
import type { HeldEntries, PlainEntry, ShowtimeEntry } from "../validate/entries.js";

/** One market's records, as a build without markets would hold its data alone; `market` absent without markets. */
export interface MarketRecords {
  market?: Market;
  linked: LinkedRecords;
  /** Its showtimes while still held (their positions), in place of `linked.records.showtimes`: see takeShowtimes. */
  held?: { showtimes: HeldEntries; positions: number[] };
}

/** How many showtimes a market has, held or not. */
export function showtimeCount(part: MarketRecords): number {
  return part.held ? part.held.positions.length : part.linked.records.showtimes.length;
}

/**
 * The market's records with its showtimes made entries (held-showtimes.ts), as validation on one
 * thread gives them; each market's are taken once, just before it is built, and the slices whose
 * showtimes are all taken are let go.
 */
export function takeShowtimes(part: MarketRecords): MarketRecords {
  if (!part.held) return part;
  const showtimes = part.held.showtimes.take(part.held.positions);
  return { market: part.market, linked: { records: { ...part.linked.records, showtimes } } };
}

export interface PartitionedRecords {
  /** In markets.json's order; one unnamed market without it. */
  markets: MarketRecords[];
  /** Films with a showtime in some market, and the rest (left out of every snapshot). */
  filmsShowing: number;
  filmsInNoMarket: number;
}

/** Each cinema's market, by its country; a problem for each cinema in none. */
function marketOfCinemas(cinemas: readonly PlainEntry[], markets: readonly Market[], problems: Problem[]) {
  const marketOfCountry = new Map<string, number>();
  markets.forEach((market, at) => {
    for (const country of market.countries) marketOfCountry.set(country, at);
  });
  const marketOf = new Map<string, number>();
  for (const cinema of cinemas) {
    const at = marketOfCountry.get(cinema.countryCode ?? "");
    if (at !== undefined) marketOf.set(cinema.id, at);
    else
      problems.push({
        code: "cinema_outside_markets",
        file: cinema.file,
        line: cinema.line,
        index: cinema.index,
        path: "location.countryCode",
        message:
          `${JSON.stringify(cinema.countryCode)} is in no market: add it to a market's countries in ` +
          "markets.json, or leave the cinema out",
      });
  }
  return marketOf;
}

export function partitionMarkets(
  { records }: LinkedRecords,
  markets: readonly Market[] | undefined,
  problems: Problem[],
): PartitionedRecords {
  if (!markets) {
    const { held, ...rest } = records;
    const all = held ? { ...rest, showtimes: held.take(held.all()) } : records;
    return { markets: [{ linked: { records: all } }], filmsShowing: records.films.length, filmsInNoMarket: 0 };
  }
  const marketOf = marketOfCinemas(records.cinemas, markets, problems);
  const cinemas = markets.map((): PlainEntry[] => []);
  // Per market, its showtimes (held: their positions).
  const showtimes = markets.map((): Array<ShowtimeEntry | number> => []);
  const films = markets.map(() => new Set<string>());
  for (const cinema of records.cinemas) {
    const at = marketOf.get(cinema.id);
    if (at !== undefined) cinemas[at]!.push(cinema);
  }
  // Showtimes come grouped by cinema in most feeds: the last cinema's market is looked up once.
  let [cinemaId, at]: [string | undefined, number | undefined] = [undefined, undefined];
  let position = 0;
  for (const showtime of records.held ?? records.showtimes) {
    if (showtime.cinemaId !== cinemaId) [cinemaId, at] = [showtime.cinemaId, marketOf.get(showtime.cinemaId)];
    if (at !== undefined) {
      showtimes[at]!.push(records.held ? position : showtime);
      films[at]!.add(showtime.filmId);
    }
    position++;
  }
  const showing = records.films.filter((film) => films.some((ids) => ids.has(film.id))).length;
  const held = records.held;
  return {
    markets: markets.map((market, i) => ({
      market,
      linked: {
        records: {
          cinemas: cinemas[i]!,
          films: records.films.filter((film) => films[i]!.has(film.id)),
          attributes: records.attributes,
          showtimes: held ? [] : (showtimes[i] as ShowtimeEntry[]),
          invalid: [],
        },
      },
      ...(held && { held: { showtimes: held, positions: showtimes[i] as number[] } }),
    })),
    filmsShowing: showing,
    filmsInNoMarket: records.films.length - showing,
  };
}
