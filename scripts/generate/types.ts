import type { Provider } from "./brands.js";
import type { Country } from "./places.js";
import type { ATTRIBUTE_KINDS, Cinema, Film } from "../../build/validate/schemas.js";

// Record shapes of spec section 2, as the build's schemas define them: generated records must
// carry exactly these fields, and the build validates them.
export type { Attribute, Cinema, Film, Provenance, Showtime } from "../../build/validate/schemas.js";
export type AttributeKind = (typeof ATTRIBUTE_KINDS)[number];

export type Language = "en" | "de" | "fr" | "es" | "it" | "ja";

/** A film record plus what scheduling needs and the record does not say. */
export interface FilmPlan {
  record: Film;
  rank: number;
  language: Language;
  runtime: number;
  isFamily: boolean;
  is3d: boolean;
  isClassic: boolean;
  /** Day index (see calendar.ts) from which it may be shown; negative when already out. */
  opensOnDay: number;
}

export interface Screen {
  number: number;
  name: string;
  premium?: "format-imax" | "format-dolby-cinema" | "format-4dx";
  accessTag?: "access-wheelchair" | "access-hearing-loop";
}

/** A cinema record plus its screens, feed and programme. */
export interface CinemaPlan {
  record: Cinema;
  index: number;
  country: Country;
  offset: string;
  independent: boolean;
  screens: Screen[];
  provider: Provider;
  site: number;
  firstPerformance: number;
  observedAtMs: number;
  bookingBase?: string;
  namesScreens: boolean;
  /** Films this cinema books, most popular first. */
  programme: FilmPlan[];
}
