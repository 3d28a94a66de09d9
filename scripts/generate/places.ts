import { type Random, drawInt, pickOne } from "./random.js";

/** A city cinemas are placed in; postal is GB outward codes or a numeric postcode range. */
export interface City {
  name: string;
  code: string;
  latitude: number;
  longitude: number;
  weight: number;
  postal: readonly string[] | readonly [number, number];
  /** Only for countries spanning several zones (US); others use the country's offset. */
  offset?: string;
  /** How far from the centre its cinemas stand, at most (a metro's area); 8 km without it. */
  spreadKm?: number;
}

// biome-ignore format: a table of codes, not one to a line
const LANGUAGES = [
  "en", "de", "fr", "es", "it", "nl", "ja", "pt", "hi", "ko", "sv", "nb", "da", "fi", "is",
  "zh", "pl", "cs", "hu", "ro", "tr", "id", "th", "tl", "ms", "vi",
] as const;
type CountryLanguage = (typeof LANGUAGES)[number];

export interface Country {
  code: string;
  weight: number;
  /** UTC offset in December: the listing window has no daylight-saving switch, so one offset per place is exact. */
  offset: string;
  /** A `lang-<language>` attribute must exist (attributes.ts; the world's others: world-places.ts). */
  language: CountryLanguage;
  /** Whether foreign films are mostly dubbed (DE, FR, ES, IT) or shown subtitled. */
  dubs: boolean;
  screenLabel: string;
  streets: readonly string[];
  formatAddress: (street: string, number: number) => string;
  independents: readonly string[];
  cities: readonly City[];
  /** The country's own postcode form, drawn from the city's range; without it, drawPostcode's GB, NL or 5 digits. */
  postcode?: (random: Random, place: City) => string;
}

export const city = (
  name: string,
  code: string,
  latitude: number,
  longitude: number,
  weight: number,
  postal: City["postal"],
  offset?: string,
): City =>
  offset === undefined
    ? { name, code, latitude, longitude, weight, postal }
    : { name, code, latitude, longitude, weight, postal, offset };

export const COUNTRIES: readonly Country[] = [
  {
    code: "GB",
    weight: 18,
    offset: "Z",
    language: "en",
    dubs: false,
    screenLabel: "Screen",
    streets: [
      "High Street",
      "Station Road",
      "Church Street",
      "Market Street",
      "Queen Street",
      "King Street",
      "Victoria Road",
      "Mill Lane",
      "London Road",
      "Castle Street",
      "The Quays",
      "Princes Street",
    ],
    formatAddress: (street, n) => `${n} ${street}`,
    independents: [
      "Electric Cinema",
      "Plaza Cinema",
      "Rio Cinema",
      "Regal Picture House",
      "Phoenix Cinema",
      "Lexi Cinema",
      "Palace Cinema",
      "Roxy Cinema",
      "Lumiere Picture House",
    ],
    cities: [
      city("London", "lon", 51.5072, -0.1276, 30, [
        "WC2H",
        "W1D",
        "SE1",
        "E1",
        "N1",
        "NW1",
        "SW1Y",
        "E14",
        "W12",
        "SW9",
        "N7",
        "SE10",
      ]),
      city("Manchester", "man", 53.4808, -2.2426, 8, ["M1", "M2", "M3", "M4", "M15", "M20"]),
      city("Birmingham", "bhm", 52.4862, -1.8904, 8, ["B1", "B2", "B4", "B5", "B15"]),
      city("Glasgow", "gla", 55.8642, -4.2518, 6, ["G1", "G2", "G3", "G12", "G51"]),
      city("Leeds", "lds", 53.8008, -1.5491, 5, ["LS1", "LS2", "LS6", "LS11"]),
      city("Bristol", "brs", 51.4545, -2.5879, 4, ["BS1", "BS2", "BS8"]),
      city("Edinburgh", "edi", 55.9533, -3.1883, 4, ["EH1", "EH3", "EH6", "EH8"]),
      city("Liverpool", "lpl", 53.4084, -2.9916, 4, ["L1", "L3", "L8"]),
      city("Cardiff", "cdf", 51.4816, -3.1791, 3, ["CF10", "CF11", "CF24"]),
      city("Newcastle upon Tyne", "ncl", 54.9783, -1.6178, 3, ["NE1", "NE4", "NE6"]),
    ],
  },
  {
    code: "DE",
    weight: 16,
    offset: "+01:00",
    language: "de",
    dubs: true,
    screenLabel: "Saal",
    streets: [
      "Hauptstraße",
      "Bahnhofstraße",
      "Schillerstraße",
      "Goethestraße",
      "Friedrichstraße",
      "Königsallee",
      "Marktplatz",
      "Gartenstraße",
      "Lindenstraße",
      "Kaiserstraße",
      "Schloßstraße",
      "Am Mühlenberg",
    ],
    formatAddress: (street, n) => `${street} ${n}`,
    independents: [
      "Babylon",
      "Lichtburg",
      "Schauburg",
      "Capitol",
      "Astor Filmlounge",
      "Metropol",
      "Apollo",
      "Gloria-Palast",
      "Filmtheater am Ring",
      "Zentral-Kino",
    ],
    cities: [
      city("Berlin", "ber", 52.52, 13.405, 20, [10115, 14199]),
      city("Hamburg", "ham", 53.5511, 9.9937, 10, [20095, 22769]),
      city("München", "muc", 48.1351, 11.582, 10, [80331, 81929]),
      city("Köln", "cgn", 50.9375, 6.9603, 7, [50667, 51149]),
      city("Frankfurt am Main", "fra", 50.1109, 8.6821, 6, [60306, 65936]),
      city("Stuttgart", "str", 48.7758, 9.1829, 5, [70173, 70629]),
      city("Düsseldorf", "dus", 51.2277, 6.7735, 5, [40210, 40629]),
      city("Leipzig", "lej", 51.3397, 12.3731, 4, [4103, 4357]),
      city("Nürnberg", "nue", 49.4521, 11.0767, 4, [90402, 90491]),
    ],
  },
  {
    code: "FR",
    weight: 16,
    offset: "+01:00",
    language: "fr",
    dubs: true,
    screenLabel: "Salle",
    streets: [
      "rue de la République",
      "avenue Jean Jaurès",
      "boulevard Victor Hugo",
      "rue Nationale",
      "place de la Gare",
      "rue du Général Leclerc",
      "quai de la Loire",
      "rue Saint-Michel",
      "cours Mirabeau",
      "avenue de l’Opéra",
    ],
    formatAddress: (street, n) => `${n} ${street}`,
    independents: [
      "Le Méliès",
      "Le Balzac",
      "L’Alhambra",
      "Le Majestic",
      "Le Louxor",
      "Cinéma Utopia",
      "Le Lumière",
      "Le Comoedia",
    ],
    cities: [
      city("Paris", "par", 48.8566, 2.3522, 25, [75001, 75020]),
      city("Lyon", "lyo", 45.764, 4.8357, 7, [69001, 69009]),
      city("Marseille", "mrs", 43.2965, 5.3698, 7, [13001, 13016]),
      city("Toulouse", "tls", 43.6047, 1.4442, 5, [31000, 31500]),
      city("Bordeaux", "bod", 44.8378, -0.5792, 4, [33000, 33800]),
      city("Lille", "lil", 50.6292, 3.0573, 4, [59000, 59800]),
      city("Nice", "nce", 43.7102, 7.262, 4, [6000, 6300]),
      city("Nantes", "nte", 47.2184, -1.5536, 4, [44000, 44300]),
    ],
  },
  {
    code: "ES",
    weight: 10,
    offset: "+01:00",
    language: "es",
    dubs: true,
    screenLabel: "Sala",
    streets: [
      "Calle Mayor",
      "Gran Vía",
      "Avenida de la Constitución",
      "Calle Real",
      "Calle de Alcalá",
      "Plaza de España",
      "Calle San Fernando",
      "Avenida de Andalucía",
      "Calle Larios",
      "Paseo de la Castellana",
    ],
    formatAddress: (street, n) => `${street}, ${n}`,
    independents: [
      "Cine Doré",
      "Cines Verdi",
      "Cine Capitol",
      "Cines Renoir",
      "Cine Ideal",
      "Cines Princesa",
      "Cine Avenida",
    ],
    cities: [
      city("Madrid", "mad", 40.4168, -3.7038, 20, [28001, 28055]),
      city("Barcelona", "bcn", 41.3874, 2.1686, 16, [8001, 8042]),
      city("Valencia", "vlc", 39.4699, -0.3763, 6, [46001, 46026]),
      city("Sevilla", "svq", 37.3891, -5.9845, 5, [41001, 41020]),
      city("Málaga", "agp", 36.7213, -4.4214, 4, [29001, 29018]),
      city("Bilbao", "bio", 43.263, -2.935, 3, [48001, 48015]),
    ],
  },
  {
    code: "IT",
    weight: 10,
    offset: "+01:00",
    language: "it",
    dubs: true,
    screenLabel: "Sala",
    streets: [
      "Via Roma",
      "Corso Vittorio Emanuele II",
      "Via Garibaldi",
      "Via Mazzini",
      "Piazza del Duomo",
      "Via Dante",
      "Viale della Libertà",
      "Corso Italia",
      "Via Cavour",
      "Via Nazionale",
    ],
    formatAddress: (street, n) => `${street}, ${n}`,
    independents: [
      "Cinema Odeon",
      "Cinema Lux",
      "Cinema Eden",
      "Cinema Nuovo Sacher",
      "Cinema Farnese",
      "Cinema Astra",
      "Cinema Ariston",
    ],
    cities: [
      city("Roma", "rom", 41.9028, 12.4964, 18, [118, 199]),
      city("Milano", "mil", 45.4642, 9.19, 16, [20121, 20162]),
      city("Napoli", "nap", 40.8518, 14.2681, 7, [80121, 80147]),
      city("Torino", "trn", 45.0703, 7.6869, 6, [10121, 10156]),
      city("Bologna", "blq", 44.4949, 11.3426, 4, [40121, 40141]),
      city("Firenze", "flr", 43.7696, 11.2558, 4, [50121, 50145]),
    ],
  },
  {
    code: "NL",
    weight: 6,
    offset: "+01:00",
    language: "nl",
    dubs: false,
    screenLabel: "Zaal",
    streets: [
      "Kalverstraat",
      "Hoofdstraat",
      "Dorpsstraat",
      "Kerkstraat",
      "Stationsplein",
      "Marktplein",
      "Molenweg",
      "Leidseplein",
      "Schoolstraat",
      "Julianalaan",
    ],
    formatAddress: (street, n) => `${street} ${n}`,
    independents: ["Filmhuis", "Rialto", "Kriterion", "Lumière", "Cinecenter", "Het Ketelhuis", "Filmtheater ’t Hoogt"],
    cities: [
      city("Amsterdam", "ams", 52.3676, 4.9041, 12, [1011, 1109]),
      city("Rotterdam", "rtm", 51.9244, 4.4777, 8, [3011, 3089]),
      city("Den Haag", "hag", 52.0705, 4.3007, 6, [2491, 2597]),
      city("Utrecht", "utc", 52.0907, 5.1214, 5, [3511, 3585]),
      city("Eindhoven", "ein", 51.4416, 5.4697, 3, [5611, 5658]),
    ],
  },
  {
    code: "US",
    weight: 24,
    offset: "-05:00",
    language: "en",
    dubs: false,
    screenLabel: "Auditorium",
    streets: [
      "Main St",
      "Broadway",
      "Market St",
      "5th Ave",
      "Sunset Blvd",
      "Park Ave",
      "Elm St",
      "Washington Blvd",
      "Lake Shore Dr",
      "Mission St",
    ],
    formatAddress: (street, n) => `${n} ${street}`,
    independents: [
      "Roxie Theater",
      "Grand Theatre",
      "Majestic Theatre",
      "Paramount Theatre",
      "Rialto Cinemas",
      "Egyptian Theatre",
      "Varsity Theatre",
      "Music Box Theatre",
    ],
    cities: [
      city("New York", "nyc", 40.7128, -74.006, 20, [10001, 10282], "-05:00"),
      city("Los Angeles", "lax", 34.0522, -118.2437, 16, [90001, 90089], "-08:00"),
      city("Chicago", "chi", 41.8781, -87.6298, 10, [60601, 60661], "-06:00"),
      city("Houston", "hou", 29.7604, -95.3698, 8, [77001, 77099], "-06:00"),
      city("Phoenix", "phx", 33.4484, -112.074, 6, [85001, 85055], "-07:00"),
      city("Denver", "den", 39.7392, -104.9903, 5, [80201, 80239], "-07:00"),
      city("Seattle", "sea", 47.6062, -122.3321, 5, [98101, 98199], "-08:00"),
      city("San Francisco", "sfo", 37.7749, -122.4194, 5, [94102, 94134], "-08:00"),
      city("Atlanta", "atl", 33.749, -84.388, 5, [30301, 30350], "-05:00"),
      city("Boston", "bos", 42.3601, -71.0589, 5, [2108, 2137], "-05:00"),
    ],
  },
];

// Royal Mail never uses C, I, K, M, O, V in the inward code's letters; NL skips SA, SD, SS.
const GB_INWARD_LETTERS = [..."ABDEFGHJLNPQRSTUWXYZ"];
const NL_LETTERS = [..."ABCDEGHJKLMNPRSTVWXZ"];
const NL_RESERVED = ["SA", "SD", "SS"];

/** Draws a postcode in the country's format from the city's range or outward codes. */
export function drawPostcode(random: Random, country: Country, place: City): string {
  if (country.postcode) return country.postcode(random, place);
  const { postal } = place;
  if (typeof postal[0] === "string") {
    const letter = () => pickOne(random, GB_INWARD_LETTERS);
    return `${pickOne(random, postal as readonly string[])} ${drawInt(random, 1, 9)}${letter()}${letter()}`;
  }
  const [min, max] = postal as readonly [number, number];
  const digits = String(drawInt(random, min, max)).padStart(country.code === "NL" ? 4 : 5, "0");
  if (country.code !== "NL") return digits;
  let letters = "SA";
  while (NL_RESERVED.includes(letters)) letters = pickOne(random, NL_LETTERS) + pickOne(random, NL_LETTERS);
  return `${digits} ${letters}`;
}
