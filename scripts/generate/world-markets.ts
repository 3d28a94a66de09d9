/**
 * `--markets world`: a dataset over the markets of the world's cinema countries, each country sized
 * by the shows its screens play: its screens times the shows a screen plays a day there. A market's
 * share of the cinemas and of the showtimes is its share of these shows, so that at 7.4M showtimes
 * (the world's, about 206k of its 212k screens here) the United States holds 2.0M.
 * Screen counts are rounded from the national and trade bodies' recent figures (MPA, UNIC, FICCI,
 * Screen Australia, China's film administration and the like): what matters is their proportions,
 * not the last screen. Shows a day are this model's, not measured: a US screen plays 7.3 (2.0M a
 * week on 39k screens), China's 3 (its screens grew faster than its audience; at the rest's rate it
 * would hold more showtimes than the United States), every other country's DEFAULT_SHOWS_A_DAY.
 */
import { ATTRIBUTES } from "./attributes.js";
import { type Country, COUNTRIES } from "./places.js";
import { apportion } from "./random.js";
import type { Attribute, CinemaPlan } from "./types.js";
import { MORE_WORLD_COUNTRIES } from "./world-places-more.js";
import { WORLD_COUNTRIES, WORLD_LANGUAGES } from "./world-places.js";
import { WORLD_US_METROS } from "./world-us-metros.js";

interface WorldMarket {
  id: string;
  name: string;
  /** Its countries, the largest first, each with its screens. */
  countries: ReadonlyArray<readonly [code: string, screens: number]>;
  /** Shows a screen plays a day on average in its countries; DEFAULT_SHOWS_A_DAY without it. */
  showsADay?: number;
}

export const DEFAULT_SHOWS_A_DAY = 6.4;

export const WORLD_MARKETS: readonly WorldMarket[] = [
  { id: "us", name: "United States", countries: [["US", 39_000]], showsADay: 7.3 },
  { id: "ca", name: "Canada", countries: [["CA", 3_100]] },
  { id: "mx", name: "Mexico", countries: [["MX", 7_600]] },
  { id: "br", name: "Brazil", countries: [["BR", 3_400]] },
  { id: "gb", name: "United Kingdom", countries: [["GB", 4_600]] },
  { id: "ie", name: "Ireland", countries: [["IE", 550]] },
  { id: "fr", name: "France", countries: [["FR", 6_300]] },
  {
    id: "dach",
    name: "Germany, Austria, Switzerland",
    countries: [
      ["DE", 4_900],
      ["CH", 580],
      ["AT", 560],
    ],
  },
  {
    id: "benelux",
    name: "Belgium, Netherlands, Luxembourg",
    countries: [
      ["NL", 1_000],
      ["BE", 500],
      ["LU", 40],
    ],
  },
  {
    id: "nordics",
    name: "Nordic countries",
    countries: [
      ["SE", 800],
      ["NO", 500],
      ["DK", 450],
      ["FI", 350],
      ["IS", 40],
    ],
  },
  { id: "es", name: "Spain", countries: [["ES", 3_600]] },
  { id: "it", name: "Italy", countries: [["IT", 3_500]] },
  { id: "in", name: "India", countries: [["IN", 9_500]] },
  {
    id: "au-nz",
    name: "Australia and New Zealand",
    countries: [
      ["AU", 2_300],
      ["NZ", 450],
    ],
  },
  { id: "jp", name: "Japan", countries: [["JP", 3_650]] },
  { id: "kr", name: "South Korea", countries: [["KR", 3_300]] },
  { id: "cn", name: "China", countries: [["CN", 86_000]], showsADay: 3 },
  { id: "tw", name: "Taiwan", countries: [["TW", 950]] },
  {
    id: "latam",
    name: "Colombia, Argentina, Peru, Chile",
    countries: [
      ["CO", 1_300],
      ["AR", 950],
      ["PE", 700],
      ["CL", 420],
    ],
  },
  {
    id: "cee",
    name: "Poland, Czechia, Hungary, Romania",
    countries: [
      ["PL", 1_500],
      ["CZ", 750],
      ["HU", 450],
      ["RO", 450],
    ],
  },
  { id: "tr", name: "Turkey", countries: [["TR", 2_600]] },
  {
    id: "sea",
    name: "Southeast Asia",
    countries: [
      ["ID", 2_200],
      ["TH", 1_200],
      ["MY", 1_200],
      ["VN", 1_200],
      ["PH", 1_000],
      ["SG", 220],
    ],
  },
  { id: "za", name: "South Africa", countries: [["ZA", 800]] },
];

/** Each country of the markets, in their order: its shows a day (screens times shows a screen plays). */
function countryShows(): Array<{ code: string; shows: number; first: boolean }> {
  return WORLD_MARKETS.flatMap(({ countries, showsADay = DEFAULT_SHOWS_A_DAY }) =>
    countries.map(([code, screens], i) => ({ code, shows: screens * showsADay, first: i === 0 })),
  );
}

/** The world's countries in the markets' order, each weighted by its shows; the US over its metros. */
export function worldCountries(): Country[] {
  const known = [...COUNTRIES, ...WORLD_COUNTRIES, ...MORE_WORLD_COUNTRIES];
  return countryShows().map(({ code, shows }) => {
    const country = known.find((c) => c.code === code)!;
    return { ...country, weight: shows, ...(code === "US" && { cities: WORLD_US_METROS }) };
  });
}

/** The dataset's markets.json: every market with its country codes. */
export function worldMarketsJson(): Array<{ id: string; name: string; countries: string[] }> {
  return WORLD_MARKETS.map(({ id, name, countries }) => ({ id, name, countries: countries.map(([code]) => code) }));
}

/** Attributes for the world's other languages: a cinema's `lang-<language>` tag must name one. */
export const WORLD_ATTRIBUTES: readonly Attribute[] = [
  ...ATTRIBUTES,
  ...Object.entries(WORLD_LANGUAGES).map(([code, name]): Attribute => ({ id: `lang-${code}`, kind: "language", name })),
];

/**
 * Cinemas per country (worldCountries' order): one to each market's largest country while there are
 * enough, so a small dataset still has every market; the rest by shows.
 */
export function worldCinemaCounts(total: number): number[] {
  const countries = countryShows();
  const first = total >= WORLD_MARKETS.length ? 1 : 0;
  const rest = apportion(
    total - first * WORLD_MARKETS.length,
    countries.map((c) => c.shows),
  );
  return rest.map((n, at) => n + (countries[at]!.first ? first : 0));
}

/**
 * Each cinema's showtimes: a country's share is its cinemas' share (which worldCinemaCounts makes its
 * shows' share), and within the country each cinema's share is its screens'. Shared by screens alone,
 * a country without chains (smaller sites) would fall short of its share; shared by shows alone, the
 * one cinema a small market gets in a small dataset would play that market's whole share (months on).
 */
export function worldShowtimeQuotas(showtimes: number, cinemas: readonly CinemaPlan[]): number[] {
  const sites = new Map<string, { cinemas: number; screens: number }>();
  for (const { country, screens } of cinemas) {
    const site = sites.get(country.code) ?? { cinemas: 0, screens: 0 };
    site.cinemas++;
    site.screens += screens.length;
    sites.set(country.code, site);
  }
  return apportion(
    showtimes,
    cinemas.map(({ country, screens }) => {
      const site = sites.get(country.code)!;
      return (site.cinemas * screens.length) / site.screens;
    }),
  );
}
