import type { Provider } from './brands.js';
import type { Country } from './places.js';

// Record shapes of spec section 2; generated records carry exactly these fields.
export interface Provenance {
  observedAt: string;
  sourceUpdatedAt?: string;
  provider: string;
  externalId: string;
}

export type AttributeKind = 'accessibility' | 'event' | 'format' | 'language';

export interface Attribute {
  id: string;
  kind: AttributeKind;
  name: string;
  description?: string;
}

export interface Film {
  id: string;
  title: string;
  durationMinutes?: number;
  certification?: string;
  posterUrl?: string;
  releaseDate?: string;
  provenance: Provenance;
}

export interface Cinema {
  id: string;
  chainId?: string;
  name: string;
  location: {
    countryCode: string;
    locality: string;
    postcode: string;
    address?: string;
    latitude?: number;
    longitude?: number;
  };
  provenance: Provenance;
}

export interface Showtime {
  id: string;
  filmId: string;
  cinemaId: string;
  startsAt: string;
  bookingUrl?: string;
  attributeIds: string[];
  screenName?: string;
  provenance: Provenance;
}

export type Language = 'en' | 'de' | 'fr' | 'es' | 'it' | 'ja';

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
  premium?: 'format-imax' | 'format-dolby-cinema' | 'format-4dx';
  accessTag?: 'access-wheelchair' | 'access-hearing-loop';
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
