/**
 * `--markets world`: a dataset over the markets of the world's larger cinema countries, each country
 * sized by its screens (its cinemas, and so its showtimes), so a market's share of the showtimes is
 * about its real share of these screens.
 * Screen counts are rounded from the national and trade bodies' recent figures (MPA, UNIC, FICCI,
 * Screen Australia and the like): what matters is their proportions, not the last screen.
 */
import { ATTRIBUTES } from "./attributes.js";
import { type Country, COUNTRIES } from "./places.js";
import { apportion } from "./random.js";
import type { Attribute } from "./types.js";
import { WORLD_COUNTRIES, WORLD_LANGUAGES } from "./world-places.js";

interface WorldMarket {
  id: string;
  name: string;
  /** Its countries, the largest first, each with its screens. */
  countries: ReadonlyArray<readonly [code: string, screens: number]>;
}

export const WORLD_MARKETS: readonly WorldMarket[] = [
  { id: "us", name: "United States", countries: [["US", 39_000]] },
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
];

/** The world's countries in the markets' order, each weighted by its screens. */
export function worldCountries(): Country[] {
  const known = [...COUNTRIES, ...WORLD_COUNTRIES];
  return WORLD_MARKETS.flatMap((market) =>
    market.countries.map(([code, screens]) => ({ ...known.find((c) => c.code === code)!, weight: screens })),
  );
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
 * enough, so a small dataset still has every market; the rest by screens.
 */
export function worldCinemaCounts(total: number): number[] {
  const countries = WORLD_MARKETS.flatMap((market) => market.countries.map(([, screens], i) => ({ screens, i })));
  const first = total >= WORLD_MARKETS.length ? 1 : 0;
  const rest = apportion(
    total - first * WORLD_MARKETS.length,
    countries.map((c) => c.screens),
  );
  return rest.map((n, at) => n + (countries[at]!.i === 0 ? first : 0));
}
