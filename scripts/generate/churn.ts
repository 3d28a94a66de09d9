/**
 * One day of realistic change to a generated dataset, for benchmarks of the changes feed (docs/
 * performance.md): the earliest day's showtimes go, a new last day comes (the last day's schedule
 * again, a day later, under new ids), 2% of the other showtimes move by half an hour, 0.5% are
 * cancelled, and two cinemas and two films close while two of each open (copies of existing ones,
 * showing the new day's copies of their originals' showtimes). Deterministic for a seed.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { forkRandom } from "./random.js";

type Json = Record<string, unknown>;

/** A uniform number in [0, 1) for an id under a seed: every record's fate is its own, whatever the order. */
function chanceOf(id: string, seed: number): number {
  let h = seed ^ 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return ((h ^ (h >>> 12)) >>> 0) / 4294967296;
}

/** A date-time moved by whole minutes, written with the offset it had. */
function moved(text: string, minutes: number): string {
  const zone = text.endsWith("Z") ? "Z" : text.slice(-6);
  const offset =
    zone === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
  const instant = Date.parse(text) + minutes * 60_000;
  const local = new Date(instant + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${zone}`;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Json[];
const writeJson = (file: string, records: Json[]) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(records, null, 2)}\n`);
};

/** Every showtime file's lines, parsed. */
function* showtimeFiles(from: string): Generator<{ relative: string; records: Json[] }> {
  for (const relative of fg.sync("showtimes/**/*.ndjson", { cwd: from }).sort()) {
    const text = readFileSync(path.join(from, relative), "utf8");
    yield {
      relative,
      records: text
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Json),
    };
  }
}

/** The first and last day (as written) any showtime starts on. */
function daySpan(from: string): [string, string] {
  let [first, last] = ["9999", "0000"];
  for (const { records } of showtimeFiles(from))
    for (const s of records) {
      const day = (s.startsAt as string).slice(0, 10);
      if (day < first) first = day;
      if (day > last) last = day;
    }
  return [first, last];
}

export interface ChurnReport {
  dropped: number;
  added: number;
  moved: number;
  cancelled: number;
}

/** Writes `to`: `from` a day later, as above. */
export function churnDataset(from: string, to: string, seed: number): ChurnReport {
  const random = forkRandom(seed, 7);
  const [first, last] = daySpan(from);
  const report: ChurnReport = { dropped: 0, added: 0, moved: 0, cancelled: 0 };
  const tag = `c${seed}`;
  // Cinemas and films: two close, two open.
  const closedCinemas = new Set<string>();
  const openedCinemas = new Map<string, string>();
  for (const relative of fg.sync("cinemas/**/*.json", { cwd: from }).sort()) {
    const cinemas = readJson(path.join(from, relative));
    const out = cinemas.filter((c) => {
      const close = random() < 2 / 700 && cinemas.length > 4;
      if (close) closedCinemas.add(c.id as string);
      return !close;
    });
    if (random() < 0.3 && out.length > 0) {
      const original = out[Math.floor(random() * out.length)]!;
      const id = `${original.id as string}-${tag}`;
      openedCinemas.set(original.id as string, id);
      out.push({ ...original, id, name: `${original.name as string} II` });
    }
    writeJson(path.join(to, relative), out);
  }
  const films = readJson(path.join(from, "films/films.json"));
  const closedFilms = new Set(films.filter(() => random() < 2 / films.length).map((f) => f.id as string));
  const openedFilms = new Map<string, string>();
  const keptFilms = films.filter((f) => !closedFilms.has(f.id as string));
  for (let i = 0; i < 2 && keptFilms.length > 0; i++) {
    const original = keptFilms[Math.floor(random() * keptFilms.length)]!;
    const id = `${original.id as string}-${tag}-${i}`;
    openedFilms.set(original.id as string, id);
    keptFilms.push({ ...original, id, title: `${original.title as string}: Part ${i + 2}` });
  }
  writeJson(path.join(to, "films/films.json"), keptFilms);
  writeJson(path.join(to, "attributes/attributes.json"), readJson(path.join(from, "attributes/attributes.json")));
  // A world dataset's markets stay as they were: its new cinemas are copies in the same countries.
  if (existsSync(path.join(from, "markets.json")))
    copyFileSync(path.join(from, "markets.json"), path.join(to, "markets.json"));
  // Showtimes, file by file.
  for (const { relative, records } of showtimeFiles(from)) {
    const out: Json[] = [];
    for (const s of records) {
      const id = s.id as string;
      const [cinema, film] = [s.cinemaId as string, s.filmId as string];
      const day = (s.startsAt as string).slice(0, 10);
      if (closedCinemas.has(cinema) || closedFilms.has(film)) continue;
      if (day === first) {
        report.dropped++;
        continue;
      }
      const fate = chanceOf(id, seed);
      if (fate < 0.005) {
        report.cancelled++;
        continue;
      }
      if (fate < 0.025) {
        report.moved++;
        out.push({ ...s, startsAt: moved(s.startsAt as string, fate < 0.015 ? 30 : -30) });
      } else out.push(s);
      if (day === last) {
        // The new last day: the same schedule a day later, some of it at the new cinemas and films.
        const copy: Json = { ...s, id: `${id}-${tag}`, startsAt: moved(s.startsAt as string, 24 * 60) };
        out.push(copy);
        report.added++;
        const cinemaCopy = openedCinemas.get(cinema);
        if (cinemaCopy) {
          out.push({ ...copy, id: `${id}-${tag}-n`, cinemaId: cinemaCopy });
          report.added++;
        }
        const filmCopy = openedFilms.get(film);
        if (filmCopy && fate > 0.5) copy.filmId = filmCopy;
      }
    }
    mkdirSync(path.dirname(path.join(to, relative)), { recursive: true });
    writeFileSync(path.join(to, relative), `${out.map((r) => JSON.stringify(r)).join("\n")}\n`);
  }
  return report;
}
