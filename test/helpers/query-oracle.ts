/**
 * The brute-force oracle of the list queries (decision: query parameters), one entry per row of
 * each list's parameter table (api/_core/endpoints/parameters/), written from the contract and sharing no
 * code with the core. The tables are its index: `oracleGaps` names every row without an entry, so a
 * parameter added to a table fails the query property test until the oracle knows what it means.
 *
 * An entry draws a random value for a dataset, writes it into a query, and says what it does to
 * the expected records: which it keeps (a filter), what it adds to each (distanceKm, embeds).
 */
import fc from "fast-check";
import {
  compareInstants,
  type Cinema,
  type Dataset,
  SHOWS_FROM,
  servedCinema,
  servedShowtime,
  type Showtime,
} from "./dataset.js";
import { onDay } from "./local-day-oracle.js";
import { naiveNearEdits } from "./near-spelling-oracle.js";

export type ListResource = "showtimes" | "cinemas" | "films" | "attributes";

/** What the oracle knows of a dataset: its served cinemas and films by id. */
export interface OracleContext {
  dataset: Dataset;
  cinemas: Map<string, Cinema>;
  films: Map<string, Dataset["films"][number]>;
}

/** The values a query was given, by parameter key. */
export type Given = Record<string, unknown>;

type Draw = (ctx: OracleContext, given: Given) => unknown;

export interface OracleEntry {
  /** Paging (cursor, limit): the walk of the pages gives them. */
  paging?: true;
  /**
   * A showtime filter on a film or cinema list: `keeps` judges showtimes, and the list keeps the
   * records having one that every such filter keeps (decision: discovery).
   */
  showing?: true;
  /** A random way to choose the row's value for a dataset; the value undefined leaves the row out. */
  draw?: fc.Arbitrary<Draw>;
  /** The row's query text, each name=value already encoded. */
  wire?(value: never, given: Given): string[];
  /** A filter: whether the record stays. */
  keeps?(value: never, record: Record<string, unknown>, ctx: OracleContext, given: Given): boolean;
  /** What the row adds to each kept record, after the record's own fields and earlier rows' additions. */
  adds?(value: never, record: Record<string, unknown>, ctx: OracleContext): Record<string, unknown>;
}

export type Oracle = Record<string, OracleEntry>;

// ---- Places ----

export const CITIES = [
  { latitude: 52.52, longitude: 13.405, country: "DE" },
  { latitude: 48.1351, longitude: 11.582, country: "DE" },
  { latitude: 51.5072, longitude: -0.1276, country: "GB" },
  { latitude: -33.8688, longitude: 151.2093, country: "AU" },
];

const EARTH_KM = 6371.0088;
const rad = (degrees: number) => (degrees * Math.PI) / 180;

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const h =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface Place {
  latitude: number;
  longitude: number;
  radiusKm: number;
  /** Sent without radiusKm: the default 25 km applies. */
  defaultRadius: boolean;
}

/** A cinema's distance from a place, or undefined when it has no coordinates. */
export function distanceTo(cinema: Cinema, near: Place): number | undefined {
  const { latitude, longitude } = cinema.location as { latitude?: number; longitude?: number };
  if (latitude === undefined || longitude === undefined) return undefined;
  return distanceKm(near.latitude, near.longitude, latitude, longitude);
}

const rounded = (km: number) => Math.round(km * 1000) / 1000;

// ---- Draws ----

const enc = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;

/** One of `items(ctx)` by a random index, or (one time in eight) `unknown`, which matches nothing. */
function pickOf(items: (ctx: OracleContext) => readonly string[], unknown?: string): fc.Arbitrary<Draw> {
  return fc.tuple(fc.nat(), fc.nat({ max: 7 })).map(([i, u]) => (ctx: OracleContext) => {
    const all = items(ctx);
    if (unknown !== undefined && u === 0) return unknown;
    return all.length === 0 ? undefined : all[i % all.length];
  });
}

const placeDraw: fc.Arbitrary<Draw> = fc
  .record({
    city: fc.nat({ max: CITIES.length - 1 }),
    radius: fc.option(fc.constantFrom(0.001, 1, 5, 12.5, 25, 60, 500), { nil: undefined }),
    dLat: fc.integer({ min: -2000, max: 2000 }),
    dLon: fc.integer({ min: -2000, max: 2000 }),
  })
  .map(({ city, radius, dLat, dLon }) => (): Place => {
    const at = CITIES[city]!;
    return {
      latitude: Number((at.latitude + dLat / 10_000).toFixed(4)),
      longitude: Number((at.longitude + dLon / 10_000).toFixed(4)),
      radiusKm: radius ?? 25,
      defaultRadius: radius === undefined,
    };
  });

function placeWire(near: Place): string[] {
  const point = `near=${near.latitude.toFixed(4)},${near.longitude.toFixed(4)}`;
  return near.defaultRadius ? [point] : [point, enc("radiusKm", String(near.radiusKm))];
}

const startsOf = (ctx: OracleContext) => ctx.dataset.showtimes.map((s) => s.startsAt);
const epochSeconds = (text: string) => Date.parse(text) / 1000;
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/**
 * 1 to `most` ids of the dataset's attributes. Only known ones: an id the catalogue lacks is a 400
 * (decision: known attribute ids), which test/attribute-filters.test.ts holds.
 */
const attributeDraw = (most: number): fc.Arbitrary<Draw> =>
  fc.uniqueArray(fc.nat({ max: 20 }), { minLength: 1, maxLength: most }).map((picks) => (ctx: OracleContext) => {
    const { attributes } = ctx.dataset;
    if (attributes.length === 0) return undefined;
    return [...new Set(picks.map((i) => attributes[i % attributes.length]!.id))];
  });

/** Each id encoded on its own: a comma inside an id travels as %2C, the separators stay literal. */
const attributeWire = (name: string) => (ids: string[]) => [`${name}=${ids.map(encodeURIComponent).join(",")}`];

// ---- Names (decision: name search), folded naively, letter by letter ----

const ACCENTED_SCRIPTS = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;
const FOLDED_LETTERS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
  ŧ: "t",
};

/** A word folded: decomposed, accents after Latin, Greek or Cyrillic letters dropped, lower case, apostrophes gone. */
export function naiveFold(word: string): string {
  let out = "";
  let base = "";
  for (const char of word.normalize("NFKD")) {
    if (/\p{M}/u.test(char)) {
      if (!ACCENTED_SCRIPTS.test(base)) out += char;
      continue;
    }
    base = char;
    if (char === "'" || char === "’" || char === "ʼ") continue;
    const lower = char.toLowerCase();
    out += [...lower].map((c) => FOLDED_LETTERS[c] ?? c).join("");
  }
  return out.normalize("NFC");
}

const segmenter = new Intl.Segmenter("und", { granularity: "word" });
const rawWords = (text: string) =>
  [...segmenter.segment(text.normalize("NFC"))].filter((s) => s.isWordLike).map((s) => s.segment);

/** A name's words as compared (folded, apostrophes dropped). */
export const foldedWords = (text: string) =>
  rawWords(text)
    .map(naiveFold)
    .filter((w) => w !== "");

/** Every word a name is found by: its folded words and the parts its apostrophes join. */
export const findingWords = (text: string) =>
  rawWords(text).flatMap((w) => [naiveFold(w), ...(/['’ʼ]/.test(w) ? w.split(/['’ʼ]/).map(naiveFold) : [])]);

/** A name's rank for a query, or undefined when it does not match: 0 whole name, 1 starts with the query, 2 else. */
export function nameRank(texts: readonly string[], query: string): number | undefined {
  const words = foldedWords(query);
  const finding = texts.flatMap(findingWords);
  if (!words.every((q) => finding.some((w) => w.startsWith(q)))) return undefined;
  const [name, key] = [foldedWords(texts[0]!).join(" "), words.join(" ")];
  return name === key ? 0 : name.startsWith(key) ? 1 : 2;
}

/** The texts a record is found by: a film's title; a cinema's name, then its locality. */
function namesOf(record: Record<string, unknown>): string[] {
  if ("title" in record) return [record.title as string];
  return [record.name as string, (record.location as { locality: string }).locality];
}

/** Whether some film (cinema) of a dataset has a name `query` finds as typed, by dataset, then resource and query. */
const typedMatches = new WeakMap<Dataset, Map<string, boolean>>();

/**
 * A name's rank among a dataset's films or cinemas (decision: name search): as typed (`nameRank`)
 * when a name of the list matches so; else a near spelling's, 2 plus its edits; undefined otherwise.
 */
export function nameRankIn(
  dataset: Dataset,
  resource: "films" | "cinemas",
  texts: readonly string[],
  query: string,
): number | undefined {
  let known = typedMatches.get(dataset);
  if (!known) typedMatches.set(dataset, (known = new Map()));
  let typed = known.get(`${resource}\n${query}`);
  if (typed === undefined) {
    const records = dataset[resource] as unknown as Array<Record<string, unknown>>;
    typed = records.some((record) => nameRank(namesOf(record), query) !== undefined);
    known.set(`${resource}\n${query}`, typed);
  }
  if (typed) return nameRank(texts, query);
  const edits = naiveNearEdits(texts.flatMap(findingWords), foldedWords(query));
  return edits === undefined ? undefined : 2 + edits;
}

/** A query drawn from a dataset's names: a word or two of a name, maybe cut, in another case; or nonsense. */
const queryDraw = (resource: "films" | "cinemas"): fc.Arbitrary<Draw> =>
  fc
    .record({
      record: fc.nat(),
      word: fc.nat(),
      two: fc.boolean(),
      cut: fc.integer({ min: 0, max: 3 }),
      upper: fc.boolean(),
      nonsense: fc.nat({ max: 9 }),
    })
    .map(({ record, word, two, cut, upper, nonsense }) => (ctx: OracleContext) => {
      if (nonsense === 0) return "zzqx";
      const records = resource === "films" ? ctx.dataset.films : [...ctx.cinemas.values()];
      if (records.length === 0) return undefined;
      const words = rawWords(namesOf(records[record % records.length] as unknown as Record<string, unknown>)[0]!);
      if (words.length === 0) return undefined;
      const first = word % words.length;
      let text = words.slice(first, two ? first + 2 : first + 1).join(" ");
      const chars = [...text];
      if (cut > 0 && chars.length > cut + 1) text = chars.slice(0, chars.length - cut).join("");
      return ` ${upper ? text.toUpperCase() : text} `;
    });

const nameEntry = (resource: "films" | "cinemas"): OracleEntry => ({
  draw: queryDraw(resource),
  wire: (q: string) => [enc("q", q)],
  keeps: (q: string, record, ctx) => nameRankIn(ctx.dataset, resource, namesOf(record), q) !== undefined,
});

/** A showtime filter as a film or cinema list takes it: its showtime oracle's draw, wire and keeps. */
const showing = (entry: OracleEntry): OracleEntry => ({
  showing: true,
  draw: entry.draw,
  wire: entry.wire,
  keeps: entry.keeps,
});

// ---- The oracle of each list ----

const PAGING: OracleEntry = { paging: true };

export const SHOWTIME_ORACLE: Oracle = {
  cinemaId: {
    draw: pickOf((ctx) => ctx.dataset.cinemas.map((c) => c.id), "no-such-cinema"),
    wire: (id: string) => [enc("cinemaId", id)],
    keeps: (id: string, s) => s.cinemaId === id,
  },
  filmId: {
    draw: pickOf((ctx) => ctx.dataset.films.map((f) => f.id), "no-such-film"),
    wire: (id: string) => [enc("filmId", id)],
    keeps: (id: string, s) => s.filmId === id,
  },
  limit: PAGING,
  startsAfter: {
    draw: pickOf(startsOf),
    wire: (at: string) => [enc("startsAfter", at)],
    keeps: (at: string, s) => compareInstants(s.startsAt as string, at) > 0,
  },
  startsBefore: {
    // A showtime's own instant (the bound is exclusive), or a window after startsAfter.
    draw: fc.oneof(
      pickOf(startsOf),
      fc.integer({ min: 0, max: 5 * 3600 }).map((window) => (_: OracleContext, given: Given) => {
        const base =
          given.startsAfter === undefined ? SHOWS_FROM : Math.floor(epochSeconds(given.startsAfter as string));
        return new Date((base + window) * 1000).toISOString().replace(".000Z", "Z");
      }),
    ),
    wire: (at: string) => [enc("startsBefore", at)],
    keeps: (at: string, s) => compareInstants(s.startsAt as string, at) < 0,
  },
  date: {
    // The days the showtimes span at any zone, and one far from them.
    draw: fc.integer({ min: -2, max: 3 }).map((d) => () => {
      const day = d === -2 ? Date.UTC(2027, 0, 1) : Date.UTC(2026, 10, 23) + d * 86_400_000;
      return new Date(day).toISOString().slice(0, 10);
    }),
    wire: (date: string) => [enc("date", date)],
    keeps: (date: string, s, ctx, given) => {
      const cinema = ctx.cinemas.get(s.cinemaId as string)!;
      const zone = (cinema.location as { timeZone?: string }).timeZone;
      const startsAt = s.startsAt as string;
      return onDay(zone, epochSeconds(startsAt), startsAt, date, (given.dayStartsAt as number | undefined) ?? 0);
    },
  },
  dayStartsAt: {
    // Only with date; what it means is part of date's day above.
    draw: fc
      .constantFrom(0, 90, 180, 359)
      .map((minutes) => (_: OracleContext, given: Given) => (given.date === undefined ? undefined : minutes)),
    wire: (minutes: number) => [enc("dayStartsAt", hhmm(minutes))],
    keeps: () => true,
  },
  attributeIds: {
    draw: attributeDraw(2),
    wire: attributeWire("attributeIds"),
    keeps: (ids: string[], s) => ids.every((a) => (s.attributeIds as string[]).includes(a)),
  },
  anyAttributeIds: {
    draw: attributeDraw(3),
    wire: attributeWire("anyAttributeIds"),
    keeps: (ids: string[], s) => ids.some((a) => (s.attributeIds as string[]).includes(a)),
  },
  near: {
    draw: placeDraw,
    wire: placeWire,
    keeps: (near: Place, s, ctx) => {
      const distance = distanceTo(ctx.cinemas.get(s.cinemaId as string)!, near);
      return distance !== undefined && distance <= near.radiusKm;
    },
    // Near a point a showtime carries its cinema's distance, before any embedded record.
    adds: (near: Place, s, ctx) => ({ distanceKm: rounded(distanceTo(ctx.cinemas.get(s.cinemaId as string)!, near)!) }),
  },
  include: {
    draw: fc.subarray(["film", "cinema"] as const, { minLength: 1 }).map((embeds) => () => embeds),
    wire: (embeds: string[]) => [`include=${embeds.join(",")}`],
    adds: (embeds: string[], s, ctx) => ({
      ...(embeds.includes("film") ? { film: ctx.films.get(s.filmId as string) } : {}),
      ...(embeds.includes("cinema") ? { cinema: ctx.cinemas.get(s.cinemaId as string) } : {}),
    }),
  },
  cursor: PAGING,
};

export const CINEMA_ORACLE: Oracle = {
  limit: PAGING,
  near: {
    draw: placeDraw,
    wire: placeWire,
    keeps: (near: Place, c) => {
      const distance = distanceTo(c as unknown as Cinema, near);
      return distance !== undefined && distance <= near.radiusKm;
    },
    adds: (near: Place, c) => ({ distanceKm: rounded(distanceTo(c as unknown as Cinema, near)!) }),
  },
  countryCode: {
    draw: fc.constantFrom("DE", "GB", "AU", "FR", "US").map((code) => () => code),
    wire: (code: string) => [enc("countryCode", code)],
    keeps: (code: string, c) => (c.location as { countryCode?: string }).countryCode === code,
  },
  chainId: {
    draw: pickOf((ctx) => [...new Set(ctx.dataset.cinemas.flatMap((c) => (c.chainId ? [c.chainId] : [])))], "no-chain"),
    wire: (chainId: string) => [enc("chainId", chainId)],
    keeps: (chainId: string, c) => c.chainId === chainId,
  },
  filmId: showing(SHOWTIME_ORACLE.filmId!),
  startsAfter: showing(SHOWTIME_ORACLE.startsAfter!),
  startsBefore: showing(SHOWTIME_ORACLE.startsBefore!),
  date: showing(SHOWTIME_ORACLE.date!),
  dayStartsAt: showing(SHOWTIME_ORACLE.dayStartsAt!),
  attributeIds: showing(SHOWTIME_ORACLE.attributeIds!),
  anyAttributeIds: showing(SHOWTIME_ORACLE.anyAttributeIds!),
  q: nameEntry("cinemas"),
  cursor: PAGING,
};

export const FILM_ORACLE: Oracle = {
  limit: PAGING,
  cinemaId: showing(SHOWTIME_ORACLE.cinemaId!),
  startsAfter: showing(SHOWTIME_ORACLE.startsAfter!),
  startsBefore: showing(SHOWTIME_ORACLE.startsBefore!),
  date: showing(SHOWTIME_ORACLE.date!),
  dayStartsAt: showing(SHOWTIME_ORACLE.dayStartsAt!),
  attributeIds: showing(SHOWTIME_ORACLE.attributeIds!),
  anyAttributeIds: showing(SHOWTIME_ORACLE.anyAttributeIds!),
  near: showing(SHOWTIME_ORACLE.near!),
  countryCode: {
    showing: true,
    draw: CINEMA_ORACLE.countryCode!.draw,
    wire: CINEMA_ORACLE.countryCode!.wire,
    keeps: (code: string, s, ctx) =>
      (ctx.cinemas.get(s.cinemaId as string)!.location as { countryCode?: string }).countryCode === code,
  },
  q: nameEntry("films"),
  cursor: PAGING,
};

export const PAGING_ORACLE: Oracle = { limit: PAGING, cursor: PAGING };

export const ORACLES: Record<ListResource, Oracle> = {
  showtimes: SHOWTIME_ORACLE,
  cinemas: CINEMA_ORACLE,
  films: FILM_ORACLE,
  attributes: PAGING_ORACLE,
};

/**
 * The rows of `table` the oracle has no complete entry for: a filter (a row that selects) needs
 * `draw`, `wire` and `keeps`; any other row `draw` and `wire` (or is paging). Empty when it covers all.
 */
export function oracleGaps(table: ReadonlyArray<{ key: string; select: unknown }>, oracle: Oracle): string[] {
  const gaps = table
    .filter((row) => {
      const entry = oracle[row.key];
      if (!entry) return true;
      if (entry.paging) return row.select !== null;
      return !entry.draw || !entry.wire || (row.select !== null && !entry.keeps);
    })
    .map((row) => row.key);
  const unknown = Object.keys(oracle).filter((key) => !table.some((row) => row.key === key));
  return [...gaps, ...unknown.map((key) => `${key} (in the oracle, not the table)`)];
}

// ---- Queries ----

export interface OracleQuery {
  resource: ListResource;
  /** Values by key, in table order: each row's drawn value, or absent. */
  given: Given;
}

/**
 * Draws a query over `table`: each drawable row present a third of the time, or, in a table of
 * more than six such rows, two at a time on average (more would leave most pages empty).
 */
export function queryArb(
  resource: ListResource,
  table: ReadonlyArray<{ key: string }>,
  /** How often each row is present, by key (a share from 0 to 1); the rest as above. */
  presence: Record<string, number> = {},
): fc.Arbitrary<(ctx: OracleContext) => OracleQuery> {
  const oracle = ORACLES[resource];
  const rows = table.filter((row) => oracle[row.key]?.draw);
  const usual = 1 / (1 + Math.max(2, Math.round(rows.length / 2) - 1));
  const sometimes = (key: string, arb: fc.Arbitrary<Draw>) => {
    const share = presence[key] ?? usual;
    return fc.oneof(
      { weight: Math.round(100 * (1 - share)), arbitrary: fc.constant(undefined) },
      { weight: Math.round(100 * share), arbitrary: arb },
    );
  };
  return fc
    .tuple(...rows.map((row) => sometimes(row.key, oracle[row.key]!.draw!)))
    .map((draws) => (ctx: OracleContext) => {
      const given: Given = {};
      rows.forEach((row, i) => {
        const value = draws[i]?.(ctx, given);
        if (value !== undefined) given[row.key] = value;
      });
      return { resource, given };
    });
}

export function contextOf(dataset: Dataset): OracleContext {
  return {
    dataset,
    cinemas: new Map(dataset.cinemas.map((c) => [c.id, servedCinema(c)])),
    films: new Map(dataset.films.map((f) => [f.id, f])),
  };
}

/** The query's URL for one page. */
export function urlOf(query: OracleQuery, limit: number, cursor: string | null): string {
  const oracle = ORACLES[query.resource];
  const parts = [`limit=${limit}`];
  for (const [key, value] of Object.entries(query.given))
    parts.push(...oracle[key]!.wire!(value as never, query.given));
  if (cursor) parts.push(`cursor=${encodeURIComponent(cursor)}`);
  return `/v1/${query.resource}?${parts.join("&")}`;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The matching showtimes of a film or cinema (decision: discovery): how many, at how many cinemas, the first. */
interface Showing {
  count: number;
  cinemas: Set<string>;
  first: Record<string, unknown>;
}

const byListOrder = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  compareInstants(a.startsAt as string, b.startsAt as string) || byId(a as { id: string }, b as { id: string });

/** The showtimes every `showing` filter of the query keeps, by the film (or cinema) they belong to. */
function showingsOf(ctx: OracleContext, query: OracleQuery): Map<string, Showing> | undefined {
  const oracle = ORACLES[query.resource];
  const filters = Object.entries(query.given).filter(([key]) => oracle[key]!.showing);
  if (filters.length === 0) return undefined;
  const groupBy = query.resource === "films" ? "filmId" : "cinemaId";
  const showings = new Map<string, Showing>();
  const showtimes = (ctx.dataset.showtimes as unknown as Array<Record<string, unknown>>).filter((s) =>
    filters.every(([key, value]) => oracle[key]!.keeps!(value as never, s, ctx, query.given)),
  );
  for (const s of showtimes.sort(byListOrder)) {
    const key = s[groupBy] as string;
    const known = showings.get(key);
    if (known) {
      known.count++;
      known.cinemas.add(s.cinemaId as string);
    } else showings.set(key, { count: 1, cinemas: new Set([s.cinemaId as string]), first: s });
  }
  return showings;
}

/** Every record the query pages through, in order, as served: filter, sort, then what rows add. */
export function expectedRecords(ctx: OracleContext, query: OracleQuery): Array<Record<string, unknown>> {
  const oracle = ORACLES[query.resource];
  const entries = Object.entries(query.given);
  const own = entries.filter(([key]) => !oracle[key]!.showing);
  const source: Array<Record<string, unknown>> =
    query.resource === "cinemas"
      ? ([...ctx.cinemas.values()] as unknown as Array<Record<string, unknown>>)
      : (ctx.dataset[query.resource] as unknown as Array<Record<string, unknown>>);
  const showings = showingsOf(ctx, query);
  const kept = source.filter(
    (record) =>
      own.every(([key, value]) => oracle[key]!.keeps?.(value as never, record, ctx, query.given) ?? true) &&
      (!showings || showings.has(record.id as string)),
  );
  kept.sort(orderOf(query, ctx, showings));
  // A showtime as served carries its end (decision: showtime ends), by its cinema's zone as served.
  const zones = new Map([...ctx.cinemas].map(([id, c]) => [id, c.location.timeZone as string | undefined]));
  const asServed = (record: Record<string, unknown>): Record<string, unknown> =>
    query.resource === "showtimes"
      ? (servedShowtime(ctx.dataset, record as unknown as Showtime, zones) as unknown as Record<string, unknown>)
      : record;
  return kept.map((record) => {
    const served = { ...asServed(record) };
    for (const [key, value] of own) Object.assign(served, oracle[key]!.adds?.(value as never, record, ctx));
    const showing = showings?.get(record.id as string);
    if (showing)
      served.matchingShowtimes = {
        count: showing.count,
        ...(query.resource === "films" ? { cinemaCount: showing.cinemas.size } : {}),
        firstStartsAt: showing.first.startsAt,
      };
    return served;
  });
}

/**
 * The list order (decision: ordering, discovery, name search): by name search's rank with `q`;
 * then showtimes by instant; cinemas near a point by distance; films with showtime filters by most
 * showtimes, then title as name search folds it; then id.
 */
function orderOf(
  query: OracleQuery,
  ctx: OracleContext,
  showings: Map<string, Showing> | undefined,
): (a: Record<string, unknown>, b: Record<string, unknown>) => number {
  const ids = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    byId(a as { id: string }, b as { id: string });
  if (query.resource === "showtimes") return byListOrder;
  const q = query.given.q as string | undefined;
  const named = query.resource === "films" || query.resource === "cinemas" ? query.resource : undefined;
  const rank = (r: Record<string, unknown>) =>
    q === undefined || !named ? 0 : nameRankIn(ctx.dataset, named, namesOf(r), q)!;
  const near = query.given.near as Place | undefined;
  if (query.resource === "cinemas" && near) {
    const d = (c: Record<string, unknown>) => distanceTo(ctx.cinemas.get(c.id as string)!, near)!;
    return (a, b) => rank(a) - rank(b) || d(a) - d(b) || ids(a, b);
  }
  if (query.resource === "films" && showings) {
    const count = (f: Record<string, unknown>) => showings.get(f.id as string)!.count;
    const title = (f: Record<string, unknown>) => foldedWords(f.title as string).join(" ");
    const byTitle = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      title(a) < title(b) ? -1 : title(a) > title(b) ? 1 : 0;
    return (a, b) => rank(a) - rank(b) || count(b) - count(a) || byTitle(a, b) || ids(a, b);
  }
  return (a, b) => rank(a) - rank(b) || ids(a, b);
}
