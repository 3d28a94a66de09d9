import { isWeekend } from "./calendar.js";
import { type Random, flip } from "./random.js";
import type { Attribute, CinemaPlan, FilmPlan, Screen } from "./types.js";

export const ATTRIBUTES: readonly Attribute[] = [
  { id: "format-2d", kind: "format", name: "2D", description: "Standard digital 2D projection." },
  { id: "format-3d", kind: "format", name: "3D", description: "Digital 3D projection; glasses are provided." },
  { id: "format-imax", kind: "format", name: "IMAX", description: "IMAX with Laser projection and 12-channel sound." },
  { id: "format-imax-3d", kind: "format", name: "IMAX 3D" },
  {
    id: "format-4dx",
    kind: "format",
    name: "4DX",
    description: "Motion seats and environmental effects such as wind, water and scent.",
  },
  {
    id: "format-dolby-cinema",
    kind: "format",
    name: "Dolby Cinema",
    description: "Dolby Vision laser projection with Dolby Atmos sound.",
  },
  { id: "format-35mm", kind: "format", name: "35mm", description: "Projected from a 35mm film print." },
  { id: "lang-en", kind: "language", name: "English" },
  { id: "lang-de", kind: "language", name: "Deutsch" },
  { id: "lang-fr", kind: "language", name: "Français" },
  { id: "lang-es", kind: "language", name: "Español" },
  { id: "lang-it", kind: "language", name: "Italiano" },
  { id: "lang-nl", kind: "language", name: "Nederlands" },
  { id: "lang-ja", kind: "language", name: "日本語 (Japanese)" },
  {
    id: "lang-ov-subtitled",
    kind: "language",
    name: "Original version with subtitles",
    description: "Shown in the original language with subtitles in the local language.",
  },
  {
    id: "access-audio-description",
    kind: "accessibility",
    name: "Audio described",
    description: "Audio description through headsets; ask at the box office.",
  },
  {
    id: "access-subtitled",
    kind: "accessibility",
    name: "Subtitled for the deaf and hard of hearing",
    description: "Open captions on screen, including sound effects and speaker names.",
  },
  {
    id: "access-wheelchair",
    kind: "accessibility",
    name: "Wheelchair accessible screen",
    description: "Step-free access and wheelchair spaces in this screen.",
  },
  { id: "access-hearing-loop", kind: "accessibility", name: "Hearing loop" },
  {
    id: "access-relaxed",
    kind: "accessibility",
    name: "Relaxed screening",
    description: "Lights low, sound down and freedom to move around.",
  },
  { id: "event-premiere", kind: "event", name: "Premiere", description: "Opening-night screening." },
  {
    id: "event-q-and-a",
    kind: "event",
    name: "Q&A",
    description: "Followed by a question and answer session with cast or crew.",
  },
  {
    id: "event-parent-baby",
    kind: "event",
    name: "Parent & Baby",
    description: "For parents and carers with babies under one year old.",
  },
  {
    id: "event-seniors",
    kind: "event",
    name: "Seniors screening",
    description: "Reduced price, with tea and biscuits.",
  },
  { id: "event-sing-along", kind: "event", name: "Sing-along", description: "Lyrics on screen; singing encouraged." },
];

/** What a single performance is, as far as its tags are concerned. */
export interface Performance {
  cinema: CinemaPlan;
  screen: Screen;
  film: FilmPlan;
  dayIndex: number;
  weekday: number;
  /** Minutes after local midnight of the listing day. */
  minute: number;
}

/** Chooses 0-4 attribute ids: a format, the spoken language, now and then an access or event tag. */
export function chooseAttributes(random: Random, show: Performance): string[] {
  const ids: string[] = [];
  const format = chooseFormat(random, show);
  if (format) ids.push(format);
  ids.push(...chooseLanguage(random, show));
  const access = chooseAccess(random, show);
  if (access) ids.push(access);
  const event = ids.length < 4 ? chooseEvent(random, show) : undefined;
  if (event) ids.push(event);
  return ids;
}

function chooseFormat(random: Random, { screen, film, cinema }: Performance): string | undefined {
  if (screen.premium === "format-imax") return film.is3d && flip(random, 0.3) ? "format-imax-3d" : "format-imax";
  if (screen.premium) return screen.premium;
  if (film.is3d && flip(random, 0.3)) return "format-3d";
  if (film.isClassic && cinema.independent && flip(random, 0.4)) return "format-35mm";
  // Many feeds leave plain 2D untagged.
  return flip(random, 0.8) ? "format-2d" : undefined;
}

function chooseLanguage(random: Random, { cinema, film }: Performance): string[] {
  const local = cinema.country.language;
  if (film.language === local) return flip(random, local === "en" ? 0.4 : 0.6) ? [`lang-${local}`] : [];
  // Big chains in dubbing countries dub nearly everything; elsewhere only family films are dubbed.
  const dubbing = cinema.country.dubs ? (cinema.independent ? 0.4 : 0.85) : film.isFamily ? 0.7 : 0;
  if (flip(random, dubbing)) return [`lang-${local}`];
  return [`lang-${film.language}`, "lang-ov-subtitled"];
}

function chooseAccess(random: Random, { screen, minute }: Performance): string | undefined {
  const roll = random();
  if (roll < 0.04) return "access-audio-description";
  if (roll < 0.07) return "access-subtitled";
  if (roll < 0.085 && minute < 18 * 60) return "access-relaxed";
  return screen.accessTag;
}

function chooseEvent(random: Random, { film, dayIndex, weekday, minute }: Performance): string | undefined {
  if (dayIndex === film.opensOnDay && minute >= 18 * 60 && flip(random, 0.35)) return "event-premiere";
  if (!isWeekend(weekday) && minute < 12 * 60 && flip(random, 0.2)) return "event-parent-baby";
  if ((weekday === 2 || weekday === 3) && minute >= 10 * 60 && minute < 15 * 60 && flip(random, 0.15))
    return "event-seniors";
  if (film.isFamily && isWeekend(weekday) && flip(random, 0.03)) return "event-sing-along";
  if (minute >= 18 * 60 && flip(random, 0.004)) return "event-q-and-a";
  return undefined;
}
