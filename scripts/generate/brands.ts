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
  { id: "odeon", name: "ODEON", countries: ["GB", "IE"], bookingHost: "www.odeon.co.uk", premium: 0.4 },
  { id: "cineworld", name: "Cineworld", countries: ["GB", "IE"], bookingHost: "www.cineworld.co.uk", premium: 0.5 },
  { id: "vue", name: "Vue", countries: ["GB", "DE", "NL"], bookingHost: "www.myvue.com", premium: 0.2 },
  { id: "cinemaxx", name: "CinemaxX", countries: ["DE"], bookingHost: "www.cinemaxx.de", premium: 0.3 },
  { id: "uci", name: "UCI Kinowelt", countries: ["DE", "IT"], bookingHost: "www.uci-kinowelt.de", premium: 0.3 },
  { id: "pathe", name: "Pathé", countries: ["FR", "NL", "CH"], bookingHost: "www.pathe.fr", premium: 0.4 },
  { id: "ugc", name: "UGC Ciné Cité", countries: ["FR"], bookingHost: "www.ugc.fr", premium: 0.3 },
  {
    id: "kinepolis",
    name: "Kinepolis",
    countries: ["FR", "ES", "NL", "BE", "LU"],
    bookingHost: "kinepolis.com",
    premium: 0.4,
  },
  { id: "cinesa", name: "Cinesa", countries: ["ES"], bookingHost: "www.cinesa.es", premium: 0.3 },
  { id: "the-space", name: "The Space Cinema", countries: ["IT"], bookingHost: "www.thespacecinema.it", premium: 0.2 },
  { id: "amc", name: "AMC", countries: ["US"], bookingHost: "www.amctheatres.com", premium: 0.5 },
  { id: "regal", name: "Regal", countries: ["US"], bookingHost: "www.regmovies.com", premium: 0.4 },
  // Chains of the world dataset's countries only (world-places.ts): places.ts's countries draw as before.
  { id: "cineplex", name: "Cineplex", countries: ["CA"], bookingHost: "www.cineplex.com", premium: 0.4 },
  { id: "cineplexx", name: "Cineplexx", countries: ["AT"], bookingHost: "www.cineplexx.at", premium: 0.3 },
  { id: "kitag", name: "Blue Cinema", countries: ["CH"], bookingHost: "www.kitag.com", premium: 0.2 },
  { id: "filmstaden", name: "Filmstaden", countries: ["SE"], bookingHost: "www.filmstaden.se", premium: 0.3 },
  { id: "nordisk-film", name: "Nordisk Film Kino", countries: ["DK", "NO"], bookingHost: "www.nfbio.dk", premium: 0.3 },
  { id: "finnkino", name: "Finnkino", countries: ["FI"], bookingHost: "www.finnkino.fi", premium: 0.3 },
  { id: "sambio", name: "Sambíóin", countries: ["IS"], bookingHost: "www.sambio.is", premium: 0.2 },
  { id: "pvr-inox", name: "PVR INOX", countries: ["IN"], bookingHost: "www.pvrcinemas.com", premium: 0.4 },
  { id: "hoyts", name: "Hoyts", countries: ["AU", "NZ"], bookingHost: "www.hoyts.com.au", premium: 0.4 },
  { id: "event", name: "Event Cinemas", countries: ["AU", "NZ"], bookingHost: "www.eventcinemas.com.au", premium: 0.3 },
  {
    id: "cinemark",
    name: "Cinemark",
    countries: ["BR", "AR", "CO", "CL", "PE"],
    bookingHost: "www.cinemark.com.br",
    premium: 0.3,
  },
  {
    id: "cinepolis",
    name: "Cinépolis",
    countries: ["MX", "CO", "PE", "CL", "AR", "ID"],
    bookingHost: "cinepolis.com",
    premium: 0.4,
  },
  { id: "cinemex", name: "Cinemex", countries: ["MX"], bookingHost: "cinemex.com", premium: 0.3 },
  { id: "toho", name: "TOHO Cinemas", countries: ["JP"], bookingHost: "www.tohotheater.jp", premium: 0.4 },
  { id: "cgv", name: "CGV", countries: ["KR", "CN", "VN", "ID"], bookingHost: "www.cgv.co.kr", premium: 0.5 },
  {
    id: "lotte-cinema",
    name: "Lotte Cinema",
    countries: ["KR", "VN"],
    bookingHost: "www.lottecinema.co.kr",
    premium: 0.3,
  },
  // The world's other countries (world-places-more.ts).
  { id: "wanda", name: "Wanda Cinemas", countries: ["CN"], bookingHost: "www.wandacinemas.com", premium: 0.5 },
  { id: "dadi", name: "Dadi Cinema", countries: ["CN"], bookingHost: "www.dadicinema.com", premium: 0.2 },
  { id: "vieshow", name: "Vieshow Cinemas", countries: ["TW"], bookingHost: "www.vscinemas.com.tw", premium: 0.4 },
  { id: "cine-colombia", name: "Cine Colombia", countries: ["CO"], bookingHost: "www.cinecolombia.com", premium: 0.3 },
  {
    id: "cinema-city",
    name: "Cinema City",
    countries: ["PL", "CZ", "HU", "RO"],
    bookingHost: "www.cinema-city.pl",
    premium: 0.4,
  },
  { id: "multikino", name: "Multikino", countries: ["PL"], bookingHost: "multikino.pl", premium: 0.3 },
  { id: "cinemaximum", name: "Cinemaximum", countries: ["TR"], bookingHost: "www.cinemaximum.com.tr", premium: 0.3 },
  { id: "cinema-xxi", name: "Cinema XXI", countries: ["ID"], bookingHost: "21cineplex.com", premium: 0.3 },
  { id: "major", name: "Major Cineplex", countries: ["TH"], bookingHost: "www.majorcineplex.com", premium: 0.4 },
  { id: "gsc", name: "Golden Screen Cinemas", countries: ["MY"], bookingHost: "www.gsc.com.my", premium: 0.4 },
  { id: "tgv", name: "TGV Cinemas", countries: ["MY"], bookingHost: "www.tgv.com.my", premium: 0.3 },
  { id: "galaxy", name: "Galaxy Cinema", countries: ["VN"], bookingHost: "www.galaxycine.vn", premium: 0.2 },
  { id: "sm-cinema", name: "SM Cinema", countries: ["PH"], bookingHost: "www.smcinema.com", premium: 0.3 },
  { id: "golden-village", name: "Golden Village", countries: ["SG"], bookingHost: "www.gv.com.sg", premium: 0.4 },
  { id: "shaw", name: "Shaw Theatres", countries: ["SG"], bookingHost: "shaw.sg", premium: 0.4 },
  { id: "ster-kinekor", name: "Ster-Kinekor", countries: ["ZA"], bookingHost: "www.sterkinekor.com", premium: 0.3 },
  { id: "nu-metro", name: "Nu Metro", countries: ["ZA"], bookingHost: "www.numetro.co.za", premium: 0.3 },
];

const BBFC = ["U", "PG", "12A", "15", "18"];
const FSK = ["FSK 0", "FSK 6", "FSK 12", "FSK 16", "FSK 18"];
const CNC = ["Tous publics", "Tous publics", "-12", "-16", "-18"];
const MPA = ["G", "PG", "PG-13", "R", "NC-17"];

export const PROVIDERS: readonly Provider[] = [
  {
    name: "cineworld-feed",
    countries: ["GB", "IE"],
    withMillis: false,
    ratings: BBFC,
    formatShowtimeId: (site, perf) => `cw:${site}:${perf}`,
    formatFilmId: (n) => `HO${String(n).padStart(8, "0")}`,
  },
  {
    name: "kinoheld-api",
    countries: ["DE", "NL", "AT", "CH", "SE", "NO", "DK", "FI", "IS", "PL", "CZ", "HU", "RO"],
    withMillis: true,
    ratings: FSK,
    formatShowtimeId: (_site, perf) => `kh-show-${perf}`,
    formatFilmId: (n) => `kh-film-${n}`,
  },
  {
    name: "allocine-sync",
    countries: ["FR", "ES", "IT", "BE", "LU", "BR", "MX", "AR", "CO", "CL", "PE"],
    withMillis: false,
    ratings: CNC,
    formatShowtimeId: (site, perf) => `AC${String(site).padStart(5, "0")}-${perf}`,
    formatFilmId: (n) => `AC-film-${n}`,
  },
  {
    name: "boxoffice-direct",
    countries: ["US", "CA", "IN", "AU", "NZ", "JP", "KR", "CN", "TW", "TR", "ID", "TH", "MY", "VN", "PH", "SG", "ZA"],
    withMillis: true,
    ratings: MPA,
    formatShowtimeId: (site, perf) => `bo_${site}_${perf}`,
    formatFilmId: (n) => `bo-title-${n}`,
  },
];
