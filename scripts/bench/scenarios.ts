/**
 * The bench's scenarios, with real paths taken from the snapshot through the format's reader:
 * the stored default page, a get-one, a composed page the cache holds, "this cinema, from now
 * on" and "this film, from now on" at random cinemas, films and minutes (thousands of distinct
 * URLs, so no cache hides the work of composing), a cinema's listings for a day (decision: local
 * dates), "near me tonight" (a place, a film, a 4-hour window) and cinemas near a point, names
 * searched and misspelt, pages of the changes feed (feed-scenario.ts), tool calls of the MCP
 * endpoint beside the HTTP requests asking the same (mcp-scenarios.ts), and a request without a key.
 */
import { readManifest, Snapshot } from "../../api/_core/format/read/snapshot.js";
import { collectFeedScenario } from "./feed-scenario.js";
import { mcpScenarios } from "./mcp-scenarios.js";
import { placeQuestions } from "./place-questions.js";
import { type Scenario, UNCACHED_URLS } from "./scenario.js";

export type { Scenario } from "./scenario.js";

/** A deterministic generator (mulberry32), so every run asks the same URLs. */
function random(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** An instant key (date-time.ts) as a date-time the API takes: seconds since the epoch, biased. */
function minuteOf(instantKey: string): number {
  return Math.floor((Number(instantKey.slice(0, 13)) - 100_000_000_000) / 60);
}

function dateTimeOfMinute(minute: number): string {
  return new Date(minute * 60_000).toISOString().replace(":00.000Z", "Z");
}

/** Every UTC date from the one of minute `first` to the one of minute `last`: the days the data covers. */
export function datesBetween(first: number, last: number): string[] {
  const day = (minute: number) => Math.floor(minute / 1440);
  return Array.from({ length: day(last) - day(first) + 1 }, (_, i) =>
    new Date((day(first) + i) * 86_400_000).toISOString().slice(0, 10),
  );
}

export async function collectScenarios(snapshotDir: string): Promise<Scenario[]> {
  const scenarios = collectListScenarios(snapshotDir);
  const feed = await collectFeedScenario(snapshotDir);
  // Before the 401, so every authorized scenario runs on a server in the same state as before.
  scenarios.splice(scenarios.length - 1, 0, feed);
  return scenarios;
}

function collectListScenarios(snapshotDir: string): Scenario[] {
  const snapshot = new Snapshot(readManifest(snapshotDir), snapshotDir, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
  try {
    const { lists } = snapshot;
    const pick = random(1);
    const ids = (store: typeof lists.cinemas) => Array.from({ length: store.length }, (_, i) => store.ids.text(i));
    const cinemas = ids(lists.cinemas);
    const films = ids(lists.films);
    const keys = lists.dictionaries;
    const first = minuteOf(keys.instantKeyOf(0));
    const last = minuteOf(keys.instantKeyOf(keys.startsAt.count - 1));
    const at = () => encodeURIComponent(dateTimeOfMinute(first + pick(last - first + 1)));
    const byCinema = Array.from(
      { length: UNCACHED_URLS },
      () =>
        `/v1/showtimes?cinemaId=${encodeURIComponent(cinemas[pick(cinemas.length)]!)}&startsAfter=${at()}&limit=100`,
    );
    // A cinema's listings for one local day, as a date strip asks them: two searches more than the cinema
    // alone. Its own random sequence, so the other scenarios ask the same URLs as in earlier releases.
    const pickDay = random(2);
    const days = datesBetween(first, last);
    const byCinemaDate = Array.from({ length: UNCACHED_URLS }, () => {
      const cinema = encodeURIComponent(cinemas[pickDay(cinemas.length)]!);
      return `/v1/showtimes?cinemaId=${cinema}&date=${days[pickDay(days.length)]}&limit=100`;
    });
    const byFilm = Array.from(
      { length: UNCACHED_URLS },
      () => `/v1/showtimes?filmId=${encodeURIComponent(films[pick(films.length)]!)}&startsAfter=${at()}&limit=100`,
    );
    // "What is on near me tonight": a place at a random cinema, a film, a 4-hour window.
    const located = Array.from({ length: lists.cinemas.length }, (_, i) => lists.cinemas.coordinates(i)).filter(
      ([latitude]) => !Number.isNaN(latitude),
    );
    const place = () => {
      const [latitude, longitude] = located[pick(located.length)]!;
      return `${latitude.toFixed(4)},${longitude.toFixed(4)}`;
    };
    const nearFilmWindow = Array.from({ length: located.length ? UNCACHED_URLS : 0 }, () => {
      const from = first + pick(last - first + 1);
      const film = encodeURIComponent(films[pick(films.length)]!);
      const after = encodeURIComponent(dateTimeOfMinute(from));
      const window = `startsAfter=${after}&startsBefore=${encodeURIComponent(dateTimeOfMinute(from + 240))}`;
      return `/v1/showtimes?near=${place()}&filmId=${film}&${window}&limit=100`;
    });
    const cinemasNear = Array.from(
      { length: located.length ? UNCACHED_URLS : 0 },
      () => `/v1/cinemas?near=${place()}&limit=100`,
    );
    // A snapshot without coordinates has no place to ask about: those scenarios are left out.
    const places: Scenario[] = located.length
      ? [
          { name: "near + film + 4 h window, uncached", paths: nearFilmWindow, authorized: true, uncached: true },
          { name: "cinemas near a point, uncached", paths: cinemasNear, authorized: true, uncached: true },
          ...discoveryScenarios(lists, days),
        ]
      : [];
    return [
      { name: "stored page", paths: ["/v1/showtimes"], authorized: true },
      { name: "get-one", paths: [`/v1/cinemas/${encodeURIComponent(cinemas[0]!)}`], authorized: true },
      { name: "composed, cached", paths: [byCinema[0]!], authorized: true },
      { name: "composed by cinema, uncached", paths: byCinema, authorized: true, uncached: true },
      { name: "cinema + date, uncached", paths: byCinemaDate, authorized: true, uncached: true },
      { name: "composed by film, uncached", paths: byFilm, authorized: true, uncached: true },
      ...places,
      ...nameScenarios(lists),
      ...placeScenarios(lists),
      ...misspeltScenarios(lists, random(6)),
      ...mcpScenarios(lists, days, random(5)),
      { name: "401", paths: ["/v1/showtimes"], authorized: false },
    ];
  } finally {
    snapshot.close();
  }
}

/**
 * "What's on near me" on a day, at a random US cinema's place (decision: discovery): the films
 * within the default 25 km, most showtimes first. Its own random sequence, so the other scenarios
 * ask the same URLs as in earlier releases.
 */
function discoveryScenarios(lists: Snapshot["lists"], days: string[]): Scenario[] {
  const pick = random(3);
  const us: string[] = [];
  for (let c = 0; c < lists.cinemas.length; c++) {
    const [latitude, longitude] = lists.cinemas.coordinates(c);
    if (lists.cinemas.countryCodeOf(c) === "US" && !Number.isNaN(latitude))
      us.push(`${latitude.toFixed(4)},${longitude.toFixed(4)}`);
  }
  if (us.length === 0) return [];
  const filmsNearOnDate = Array.from(
    { length: UNCACHED_URLS },
    () => `/v1/films?near=${us[pick(us.length)]}&date=${days[pick(days.length)]}`,
  );
  return [
    { name: "films near a US city on a date, uncached", paths: filmsNearOnDate, authorized: true, uncached: true },
  ];
}

/** The words of every name of a resource (titles; cinemas' names and localities), as written. */
function nameWordsOf(lists: Snapshot["lists"], resource: "films" | "cinemas"): string[][] {
  const store = lists[resource];
  const words: string[][] = [];
  for (let i = 0; i < store.length; i++) {
    const record = JSON.parse(Buffer.from(store.records.entry(i)).toString("utf8"));
    const texts = resource === "films" ? [record.title] : [record.name, record.location.locality];
    for (const text of texts)
      words.push(
        String(text)
          .split(/\s+/)
          .filter((w) => /^\p{L}/u.test(w)),
      );
  }
  return words;
}

/**
 * Misspelt names (decision: name search, near spellings): a word of at least 4 letters of a random
 * name with one letter changed, left out, doubled or swapped with the next, now and then after the
 * word before it, so that nothing matches as typed and every word of the index is looked at.
 */
function misspeltScenarios(lists: Snapshot["lists"], pick: (n: number) => number): Scenario[] {
  const queries = (resource: "films" | "cinemas") => {
    const names = nameWordsOf(lists, resource).filter((name) => name.some((w) => [...w].length >= 4));
    return Array.from({ length: names.length ? UNCACHED_URLS : 0 }, (_, n) => {
      const name = names[pick(names.length)]!;
      const long = name.flatMap((w, i) => ([...w].length >= 4 ? [i] : []));
      const at = long[pick(long.length)]!;
      const chars = [...name[at]!.toLowerCase()];
      const i = pick(chars.length - 1);
      const edit = pick(4);
      if (edit === 0) chars[i] = chars[i] === "q" ? "x" : "q";
      if (edit === 1) chars.splice(i, 1);
      if (edit === 2) chars.splice(i, 0, chars[i]!);
      if (edit === 3) [chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!];
      const q = at > 0 && pick(3) === 0 ? `${name[at - 1]} ${chars.join("")}` : chars.join("");
      return `/v1/${resource}?q=${encodeURIComponent(q)}&limit=${20 + (n % 11)}`;
    });
  };
  return [
    { name: "q misspelt on films, uncached", paths: queries("films"), authorized: true, uncached: true },
    { name: "q misspelt on cinemas, uncached", paths: queries("cinemas"), authorized: true, uncached: true },
  ];
}

/**
 * A search box's requests (decision: name search): the first letters of a word of a random title
 * (or cinema name, or locality), two to six of them, now and then with the next word. Distinct
 * queries are fewer than the uncached URLs, so each comes in several page sizes.
 */
function nameScenarios(lists: Snapshot["lists"]): Scenario[] {
  const pick = random(4);
  const queries = (resource: "films" | "cinemas") => {
    const words = nameWordsOf(lists, resource);
    return Array.from({ length: UNCACHED_URLS }, (_, n) => {
      const name = words[pick(words.length)]!;
      const at = pick(Math.max(1, name.length));
      const word = name[at] ?? "a";
      let q = word.slice(0, 2 + pick(5));
      if (pick(4) === 0 && name[at + 1]) q = `${word} ${name[at + 1]!.slice(0, 3)}`;
      return `/v1/${resource}?q=${encodeURIComponent(q)}&limit=${20 + (n % 11)}`;
    });
  };
  return [
    { name: "q on films, uncached", paths: queries("films"), authorized: true, uncached: true },
    { name: "q on cinemas, uncached", paths: queries("cinemas"), authorized: true, uncached: true },
  ];
}

/**
 * "What's on near X" (decision: places): a place look-up by a cinema's locality, whole or its first
 * letters, sometimes with its country, in page sizes of 1 to 20 (place-questions.ts): each distinct.
 */
function placeScenarios(lists: Snapshot["lists"]): Scenario[] {
  const paths = placeQuestions(lists, random(6), 20).map(({ q, countryCode, limit }) => {
    const where = countryCode ? `&countryCode=${countryCode}` : "";
    return `/v1/places?q=${encodeURIComponent(q)}${where}&limit=${limit}`;
  });
  return paths.length ? [{ name: "places, uncached", paths, authorized: true, uncached: true }] : [];
}
