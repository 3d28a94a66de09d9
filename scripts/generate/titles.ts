import { type Random, flip, pickOne } from "./random.js";
import type { Language } from "./types.js";

const ADJECTIVES = [
  "Silent",
  "Broken",
  "Hidden",
  "Last",
  "Golden",
  "Crimson",
  "Hollow",
  "Distant",
  "Electric",
  "Frozen",
  "Burning",
  "Quiet",
  "Savage",
  "Midnight",
  "Northern",
  "Paper",
  "Glass",
  "Iron",
  "Wild",
  "Bright",
  "Final",
  "Lost",
  "Velvet",
  "Endless",
  "Shattered",
  "Sunken",
  "Restless",
  "Little",
  "Scarlet",
  "Secret",
];
const NOUNS = [
  "Harbour",
  "Kingdom",
  "Orbit",
  "Ledger",
  "Lanterns",
  "Horizon",
  "River",
  "Empire",
  "Garden",
  "Signal",
  "Frontier",
  "Winter",
  "Summer",
  "Machine",
  "Crown",
  "Storm",
  "Tide",
  "Echo",
  "Voyage",
  "Island",
  "Shadow",
  "Fortune",
  "Circuit",
  "Witness",
  "Promise",
  "Canyon",
  "Legacy",
  "Protocol",
  "Station",
  "Hours",
];
const OF_WHAT = [
  "Ash",
  "Stars",
  "Smoke",
  "Thunder",
  "Glass",
  "Bones",
  "Salt",
  "Dust",
  "Fire",
  "Silence",
  "Mercy",
  "Kings",
  "Tomorrow",
  "Wolves",
  "Light",
  "the Deep",
  "the North",
  "Ghosts",
];
const HEROES = ["Pip", "Milo", "Luna", "Otto", "Bea", "Ziggy", "Nell", "Toby", "Rosie", "Finn"];
const SEQUELS = [" 2", " 3", ": Part Two", ": Reckoning", " Returns"];

// Each language: nouns of one grammatical gender, so that every pattern below stays grammatical.
const FOREIGN: Record<Exclude<Language, "en">, { nouns: readonly string[]; patterns: readonly string[] }> = {
  de: {
    nouns: [
      "Fähre",
      "Nacht",
      "Grenze",
      "Stille",
      "Heimat",
      "Brücke",
      "Reise",
      "Sehnsucht",
      "Lichtung",
      "Spur",
      "Wüste",
      "Insel",
    ],
    patterns: ["Die letzte {}", "Nach der {}", "Die {}", "Eine {} im Süden", "Die große {}"],
  },
  fr: {
    nouns: ["nuit", "lumière", "rivière", "forêt", "saison", "mémoire", "frontière", "île", "promesse", "colère"],
    patterns: ["La dernière {}", "Après la {}", "La {} blanche", "Une {} à Marseille"],
  },
  es: {
    nouns: ["noche", "frontera", "memoria", "isla", "luz", "sombra", "canción", "tormenta", "promesa", "herida"],
    patterns: ["La última {}", "Después de la {}", "La {} del sur", "Una {} en Madrid"],
  },
  it: {
    nouns: ["notte", "estate", "luce", "memoria", "isola", "stagione", "città", "strada", "promessa", "ferita"],
    patterns: ["L'ultima {}", "Dopo la {}", "La {} di Napoli", "Una {} a Roma"],
  },
  ja: {
    nouns: ["Tsuki", "Kaze", "Hana", "Yume", "Umi", "Sora", "Yoru", "Natsu", "Kōri", "Yūhi", "Hoshi", "Ame"],
    patterns: ["{} no {}", "{} to {}", "{} no Uta"],
  },
};

/** Makes up a plausible title in the film's language. */
export function inventTitle(random: Random, language: Language, isFamily: boolean, isTentpole: boolean): string {
  if (language !== "en") {
    const { nouns, patterns } = FOREIGN[language];
    const title = pickOne(random, patterns).replace(/\{\}/g, () => pickOne(random, nouns));
    return title[0]!.toUpperCase() + title.slice(1);
  }
  if (isFamily) {
    const hero = pickOne(random, HEROES);
    return flip(random, 0.5)
      ? `${hero} and the ${pickOne(random, ADJECTIVES)} ${pickOne(random, NOUNS)}`
      : `The ${pickOne(random, ADJECTIVES)} Adventures of ${hero}`;
  }
  const roll = random();
  const base =
    roll < 0.35
      ? `The ${pickOne(random, ADJECTIVES)} ${pickOne(random, NOUNS)}`
      : roll < 0.65
        ? `${pickOne(random, NOUNS)} of ${pickOne(random, OF_WHAT)}`
        : roll < 0.85
          ? `${pickOne(random, ADJECTIVES)} ${pickOne(random, NOUNS)}`
          : `The ${pickOne(random, NOUNS)}`;
  return isTentpole && flip(random, 0.3) ? base + pickOne(random, SEQUELS) : base;
}

/** Turns any title into an ASCII slug for ids and URLs ("Die letzte Fähre" → "die-letzte-fahre"). */
export function slugify(text: string): string {
  return text
    .replace(/ß/g, "ss")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
