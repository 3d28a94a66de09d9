import { CHAINS, type Chain, PROVIDERS } from "./brands.js";
import { CRAWL_DAY_MS } from "./calendar.js";
import { type Country, COUNTRIES, drawPostcode } from "./places.js";
import { createProvenance } from "./provenance.js";
import {
  type Random,
  accumulateWeights,
  apportion,
  drawInt,
  flip,
  forkRandom,
  pickOne,
  pickWeighted,
} from "./random.js";
import type { Cinema, CinemaPlan, FilmPlan, Screen } from "./types.js";

const PREMIUM_FORMATS = ["format-imax", "format-imax", "format-dolby-cinema", "format-4dx"] as const;
const PREMIUM_NAMES = { "format-imax": "IMAX", "format-dolby-cinema": "Dolby Cinema", "format-4dx": "4DX" } as const;

/** About 364 showtimes per cinema: 26 a day over the 14 listed days. */
export function countCinemas(showtimes: number): number {
  return Math.max(3, Math.round(showtimes / 364));
}

/**
 * Creates the cinemas grouped by country, each with its screens, feed and film programme: `count`
 * of them over places.ts's countries by weight, or over `countries` as `perCountry` says (a world dataset).
 */
export function createCinemas(
  seed: number,
  count: number,
  films: readonly FilmPlan[],
  countries: readonly Country[] = COUNTRIES,
  perCountry = apportion(
    count,
    countries.map((country) => country.weight),
  ),
): CinemaPlan[] {
  const random = forkRandom(seed, 2);
  const pickFilm = createFilmPicker(films);
  const plans: CinemaPlan[] = [];
  const sitesPerChainCity = new Map<string, number>();
  countries.forEach((country, c) => {
    const cityTotals = accumulateWeights(country.cities.map((city) => city.weight));
    const chains = CHAINS.filter((chain) => chain.countries.includes(country.code));
    for (let i = 0; i < perCountry[c]!; i++) {
      const chain = flip(random, 0.25) ? undefined : pickOne(random, chains);
      const place = country.cities[pickWeighted(random, cityTotals)]!;
      const key = `${chain?.id}/${place.code}`;
      const nth = (sitesPerChainCity.get(key) ?? 0) + 1;
      sitesPerChainCity.set(key, nth);
      plans.push(
        planCinema(random, { index: plans.length, country, place, chain, isFirstInCity: nth === 1 }, pickFilm),
      );
    }
  });
  return plans;
}

interface Siting {
  index: number;
  country: Country;
  place: Country["cities"][number];
  chain: Chain | undefined;
  isFirstInCity: boolean;
}

function planCinema(random: Random, siting: Siting, pickFilm: FilmPicker): CinemaPlan {
  const { index, country, place, chain } = siting;
  const home = PROVIDERS.find((provider) => provider.countries.includes(country.code))!;
  const provider = flip(random, 0.9) ? home : pickOne(random, PROVIDERS);
  const site = 100 + index * 7 + drawInt(random, 0, 6);
  // Most sites are small; the 5-20 range's top end is a few flagship multiplexes. The mean of about
  // 7.5 screens spreads countCinemas' 26 showtimes a day to about 3.5 per screen: the cinema count
  // wins over "5 per screen" because it fixes how much a cinemaId filter returns.
  const screenCount = chain ? 5 + Math.floor(16 * random() ** 4) : 5 + Math.floor(3 * random() * random());
  const serial = String(index + 1).padStart(5, "0");
  const id = `${country.code.toLowerCase()}-${place.code}-${chain?.id ?? "indie"}-${serial}`;
  const street = pickOne(random, country.streets);
  const name = chain
    ? `${chain.name} ${place.name}${siting.isFirstInCity ? "" : ` ${street}`}`
    : `${pickOne(random, country.independents)} ${place.name}`;
  const observedAtMs = CRAWL_DAY_MS + Math.floor(random() * 22 * 3_600_000);
  const record: Cinema = {
    id,
    ...(chain && { chainId: chain.id }),
    name,
    location: {
      countryCode: country.code,
      locality: place.name,
      postcode: drawPostcode(random, country, place),
      ...(flip(random, 0.95) && {
        address: country.formatAddress(street, drawInt(random, 1, country.code === "US" ? 9_999 : 180)),
      }),
      ...(flip(random, 0.97) && placeNear(random, place.latitude, place.longitude, place.spreadKm)),
    },
    provenance: createProvenance(
      random,
      provider,
      observedAtMs,
      `${provider.name.split("-")[0]}-site-${site}`,
      24 * 200,
    ),
  };
  const independent = chain === undefined;
  return {
    record,
    index,
    country,
    offset: place.offset ?? country.offset,
    independent,
    screens: createScreens(random, screenCount, country, chain),
    provider,
    site,
    // A cinema lists about 1,000 showtimes at most, so performance numbers never collide across cinemas.
    firstPerformance: 1_000_000 + index * 20_000 + drawInt(random, 0, 999),
    observedAtMs,
    ...(flip(random, independent ? 0.8 : 0.97) && {
      bookingBase: chain
        ? `https://${chain.bookingHost}/tickets/${site}/`
        : `https://tickets.${provider.name}.example/${id}/`,
    }),
    namesScreens: flip(random, 0.75),
    programme: pickFilm(random, independent, country.language, screenCount * 2 + 2),
  };
}

/** 8 km in degrees of latitude, as the first datasets drew it (kept exact, so they stay byte for byte). */
const EIGHT_KM_DEGREES = 0.16;

// Within about 8 km of the centre (or the city's spread), rounded to 5 decimals (about a metre), as feeds give.
function placeNear(random: Random, latitude: number, longitude: number, spreadKm = 8) {
  const round = (x: number) => Math.round(x * 1e5) / 1e5;
  const span = (spreadKm / 8) * EIGHT_KM_DEGREES;
  const dLon = ((random() - 0.5) * span) / Math.cos((latitude * Math.PI) / 180);
  return { latitude: round(latitude + (random() - 0.5) * span), longitude: round(longitude + dLon) };
}

function createScreens(random: Random, count: number, country: Country, chain: Chain | undefined): Screen[] {
  const premium = chain && count >= 6 && flip(random, chain.premium) ? pickOne(random, PREMIUM_FORMATS) : undefined;
  const accessTag = flip(random, 0.2) ? (flip(random, 0.7) ? "access-wheelchair" : "access-hearing-loop") : undefined;
  return Array.from({ length: count }, (_, i): Screen => {
    const number = i + 1;
    const screen: Screen = { number, name: `${country.screenLabel} ${number}` };
    if (number === 1 && premium) Object.assign(screen, { premium, name: PREMIUM_NAMES[premium] });
    if (accessTag && flip(random, 0.5)) screen.accessTag = accessTag;
    return screen;
  });
}

type FilmPicker = (random: Random, independent: boolean, language: string, size: number) => FilmPlan[];

/**
 * Popularity is Zipf-like: multiplexes book mostly the head of the list, independents a flatter
 * spread with more foreign films, and every cinema favours films in its own language.
 */
function createFilmPicker(films: readonly FilmPlan[]): FilmPicker {
  const cache = new Map<string, Float64Array>();
  const totalsFor = (independent: boolean, language: string) => {
    const key = `${independent}/${language}`;
    let totals = cache.get(key);
    if (!totals) {
      totals = accumulateWeights(
        films.map((film) => {
          const weight = (film.rank + 1) ** (independent ? -0.5 : -1.1);
          return weight * (film.language === language ? 4 : 1) * (independent && film.language !== "en" ? 3 : 1);
        }),
      );
      cache.set(key, totals);
    }
    return totals;
  };
  return (random, independent, language, size) => {
    const totals = totalsFor(independent, language);
    const chosen = new Set<FilmPlan>();
    for (let tries = 0; chosen.size < Math.min(size, films.length) && tries < size * 10; tries++) {
      chosen.add(films[pickWeighted(random, totals)]!);
    }
    return [...chosen].sort((a, b) => a.rank - b.rank);
  };
}
