/** A cinema chain: where it operates, how big its sites are and where its tickets are sold. */
export interface Chain {
  id: string;
  name: string;
  countries: readonly string[];
  bookingHost: string;
  /** Chance that a site has a premium large-format screen, which is always screen 1. */
  premium: number;
}

/** A listings source; every cinema, film and showtime record names the one it came from. */
export interface Provider {
  name: string;
  /** Which countries it is the main feed for; a few cinemas elsewhere come from it too. */
  countries: readonly string[];
  /** Some feeds report fractional seconds and some do not, which the validator must accept. */
  withMillis: boolean;
  ratings: readonly string[];
  formatShowtimeId: (site: number, performance: number) => string;
  formatFilmId: (n: number) => string;
}

export const CHAINS: readonly Chain[] = [
  { id: "odeon", name: "ODEON", countries: ["GB"], bookingHost: "www.odeon.co.uk", premium: 0.4 },
  { id: "cineworld", name: "Cineworld", countries: ["GB"], bookingHost: "www.cineworld.co.uk", premium: 0.5 },
  { id: "vue", name: "Vue", countries: ["GB", "DE", "NL"], bookingHost: "www.myvue.com", premium: 0.2 },
  { id: "cinemaxx", name: "CinemaxX", countries: ["DE"], bookingHost: "www.cinemaxx.de", premium: 0.3 },
  { id: "uci", name: "UCI Kinowelt", countries: ["DE", "IT"], bookingHost: "www.uci-kinowelt.de", premium: 0.3 },
  { id: "pathe", name: "Pathé", countries: ["FR", "NL"], bookingHost: "www.pathe.fr", premium: 0.4 },
  { id: "ugc", name: "UGC Ciné Cité", countries: ["FR"], bookingHost: "www.ugc.fr", premium: 0.3 },
  { id: "kinepolis", name: "Kinepolis", countries: ["FR", "ES", "NL"], bookingHost: "kinepolis.com", premium: 0.4 },
  { id: "cinesa", name: "Cinesa", countries: ["ES"], bookingHost: "www.cinesa.es", premium: 0.3 },
  { id: "the-space", name: "The Space Cinema", countries: ["IT"], bookingHost: "www.thespacecinema.it", premium: 0.2 },
  { id: "amc", name: "AMC", countries: ["US"], bookingHost: "www.amctheatres.com", premium: 0.5 },
  { id: "regal", name: "Regal", countries: ["US"], bookingHost: "www.regmovies.com", premium: 0.4 },
];

const BBFC = ["U", "PG", "12A", "15", "18"];
const FSK = ["FSK 0", "FSK 6", "FSK 12", "FSK 16", "FSK 18"];
const CNC = ["Tous publics", "Tous publics", "-12", "-16", "-18"];
const MPA = ["G", "PG", "PG-13", "R", "NC-17"];

export const PROVIDERS: readonly Provider[] = [
  {
    name: "cineworld-feed",
    countries: ["GB"],
    withMillis: false,
    ratings: BBFC,
    formatShowtimeId: (site, perf) => `cw:${site}:${perf}`,
    formatFilmId: (n) => `HO${String(n).padStart(8, "0")}`,
  },
  {
    name: "kinoheld-api",
    countries: ["DE", "NL"],
    withMillis: true,
    ratings: FSK,
    formatShowtimeId: (_site, perf) => `kh-show-${perf}`,
    formatFilmId: (n) => `kh-film-${n}`,
  },
  {
    name: "allocine-sync",
    countries: ["FR", "ES", "IT"],
    withMillis: false,
    ratings: CNC,
    formatShowtimeId: (site, perf) => `AC${String(site).padStart(5, "0")}-${perf}`,
    formatFilmId: (n) => `AC-film-${n}`,
  },
  {
    name: "boxoffice-direct",
    countries: ["US"],
    withMillis: true,
    ratings: MPA,
    formatShowtimeId: (site, perf) => `bo_${site}_${perf}`,
    formatFilmId: (n) => `bo-title-${n}`,
  },
];
