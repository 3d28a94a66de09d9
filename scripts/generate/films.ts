import { PROVIDERS } from "./brands.js";
import { CRAWL_DAY_MS, formatDay } from "./calendar.js";
import { createProvenance } from "./provenance.js";
import { type Random, drawInt, flip, pickOne } from "./random.js";
import { inventTitle, slugify } from "./titles.js";
import type { Film, FilmPlan, Language } from "./types.js";

const FOREIGN_LANGUAGES: readonly Language[] = ["fr", "fr", "de", "de", "es", "it", "ja"];
// Wednesday (FR), Thursday (DE) and Friday (GB, US) openings inside the two listed weeks.
const OPENING_DAYS = [1, 2, 3, 8, 9, 10];
const RATING_WEIGHTS = [0, 0.25, 0.4, 0.25, 0.1];

/** Scales the catalogue smoothly with N: about 200 films at 20k showtimes, 350 at 200k, 600 at 2M. */
export function countFilms(showtimes: number): number {
  return Math.max(5, Math.round(200 * (showtimes / 20_000) ** 0.24));
}

/** Creates the film catalogue, most popular first. */
export function createFilms(random: Random, count: number): FilmPlan[] {
  const usedTitles = new Set<string>();
  const usedIds = new Set<string>();
  const films: FilmPlan[] = [];
  for (let rank = 0; rank < count; rank++) {
    const isTentpole = rank < Math.max(3, count * 0.1);
    const language: Language = isTentpole || flip(random, 0.7) ? "en" : pickOne(random, FOREIGN_LANGUAGES);
    const isFamily = language === "en" && flip(random, 0.18);
    let title = inventTitle(random, language, isFamily, isTentpole);
    for (let tries = 0; usedTitles.has(title) && tries < 10; tries++)
      title = inventTitle(random, language, isFamily, isTentpole);
    usedTitles.add(title);
    const id = claimId(usedIds, `film-${slugify(title) || "untitled"}`);
    const isClassic = !isTentpole && rank > count / 2 && flip(random, 0.08);
    const opensOnDay = chooseOpening(random, rank, isTentpole, isClassic);
    const runtime = isFamily ? drawInt(random, 78, 105) : 85 + Math.round(((random() + random() + random()) / 3) * 90);
    const is3d = (isTentpole && flip(random, 0.6)) || (isFamily && rank < count * 0.3 && flip(random, 0.5));
    const record = describeFilm(random, { id, title, rank, runtime, isFamily, isClassic, opensOnDay });
    films.push({ record, rank, language, runtime, isFamily, is3d, isClassic, opensOnDay });
  }
  return films;
}

function claimId(used: Set<string>, base: string): string {
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}

// The three biggest films are always already out, so every cinema has something to show on day 0.
function chooseOpening(random: Random, rank: number, isTentpole: boolean, isClassic: boolean): number {
  if (isClassic) return -drawInt(random, 7_000, 27_000);
  if (rank >= 3 && flip(random, isTentpole ? 0.2 : 0.08)) return pickOne(random, OPENING_DAYS);
  return isTentpole ? -drawInt(random, 3, 56) : -drawInt(random, 1, 150);
}

interface FilmFacts {
  id: string;
  title: string;
  rank: number;
  runtime: number;
  isFamily: boolean;
  isClassic: boolean;
  opensOnDay: number;
}

function describeFilm(random: Random, facts: FilmFacts): Film {
  const provider = pickOne(random, PROVIDERS);
  const { id, runtime } = facts;
  return {
    id,
    title: facts.title,
    ...(flip(random, 0.98) && { durationMinutes: runtime }),
    ...(flip(random, 0.92) && { certification: chooseRating(random, provider.ratings, facts.isFamily) }),
    ...(flip(random, 0.9) && {
      posterUrl: `https://img.${provider.name}.example/posters/${id.slice("film-".length)}.jpg`,
    }),
    ...(flip(random, 0.96) && { releaseDate: formatDay(facts.opensOnDay) }),
    // Catalogue crawls run early on the crawl day and take a second or two per title.
    provenance: createProvenance(
      random,
      provider,
      CRAWL_DAY_MS + 2 * 3_600_000 + facts.rank * 1_700,
      provider.formatFilmId(10_000 + facts.rank * 7),
      60 * 24,
    ),
  };
}

function chooseRating(random: Random, ratings: readonly string[], isFamily: boolean): string {
  if (isFamily) return ratings[flip(random, 0.5) ? 0 : 1]!;
  let roll = random();
  const index = RATING_WEIGHTS.findIndex((weight) => (roll -= weight) < 0);
  return ratings[index === -1 ? ratings.length - 1 : index]!;
}
