/**
 * The countries a world dataset (`--markets world`) adds to places.ts's: each with a few cities (their
 * December offsets: the listing window has no daylight-saving switch), its language and its postcode
 * form. Smaller than places.ts's tables: enough for names, addresses and postcodes that look right.
 */
import { type City, type Country, city } from "./places.js";
import { type Random, drawInt, pickOne } from "./random.js";

/** Languages of the world's countries beyond places.ts's, each with its `lang-` attribute (WORLD_ATTRIBUTES). */
export const WORLD_LANGUAGES = {
  pt: "Português",
  hi: "हिन्दी (Hindi)",
  ko: "한국어 (Korean)",
  sv: "Svenska",
  nb: "Norsk",
  da: "Dansk",
  fi: "Suomi",
  is: "Íslenska",
  zh: "中文 (Chinese)",
  pl: "Polski",
  cs: "Čeština",
  hu: "Magyar",
  ro: "Română",
  tr: "Türkçe",
  id: "Bahasa Indonesia",
  th: "ไทย (Thai)",
  tl: "Filipino",
  ms: "Bahasa Melayu",
  vi: "Tiếng Việt",
} as const satisfies Partial<Record<Country["language"], string>>;

const range = (place: City) => place.postal as readonly [number, number];
/** The city's postcode range drawn as `width` digits, placed into `form` where `#` stands for a digit. */
export const numeric =
  (width: number, form = "#".repeat(width)) =>
  (random: Random, place: City) => {
    const digits = String(drawInt(random, ...range(place))).padStart(width, "0");
    let at = 0;
    return form.replace(/#/g, () => digits[at++]!);
  };
const LETTERS = [..."ABCEGHJKLMNPRSTVXY"];
/** Canada's A1A 1A1 (outward codes from the city's list) and Ireland's Eircode (routing key, then four). */
const canadian = (random: Random, place: City) => {
  const outward = pickOne(random, place.postal as readonly string[]);
  return `${outward} ${drawInt(random, 1, 9)}${pickOne(random, LETTERS)}${drawInt(random, 0, 9)}`;
};
const eircode = (random: Random, place: City) =>
  `${pickOne(random, place.postal as readonly string[])} ${pickOne(random, LETTERS)}${drawInt(random, 100, 999)}`;

export interface Plan {
  code: string;
  offset: string;
  language: Country["language"];
  dubs: boolean;
  screenLabel: string;
  streets: readonly string[];
  numberFirst?: boolean;
  independents: readonly string[];
  cities: readonly City[];
  postcode: Country["postcode"];
}

export const country = ({ numberFirst, ...plan }: Plan): Country => ({
  ...plan,
  weight: 0,
  formatAddress: numberFirst ? (street, n) => `${n} ${street}` : (street, n) => `${street} ${n}`,
});

export const WORLD_COUNTRIES: readonly Country[] = [
  country({
    code: "CA",
    offset: "-05:00",
    language: "en",
    dubs: false,
    screenLabel: "Screen",
    streets: ["Yonge St", "King St W", "Rue Sainte-Catherine", "Robson St", "Bank St"],
    numberFirst: true,
    independents: ["Revue Cinema", "Cinéma du Parc", "The Rio Theatre", "Bytowne Cinema"],
    // British Columbia and Alberta keep summer time all year from November 2026 (tzdata 2026c on).
    cities: [
      city("Toronto", "yyz", 43.6532, -79.3832, 12, ["M5V", "M4W", "M6J"], "-05:00"),
      city("Montréal", "yul", 45.5019, -73.5674, 8, ["H2X", "H3B", "H2W"], "-05:00"),
      city("Vancouver", "yvr", 49.2827, -123.1207, 6, ["V6B", "V5K", "V6E"], "-07:00"),
      city("Calgary", "yyc", 51.0447, -114.0719, 4, ["T2P", "T2R"], "-06:00"),
      city("Ottawa", "yow", 45.4215, -75.6972, 3, ["K1P", "K2P"], "-05:00"),
    ],
    postcode: canadian,
  }),
  country({
    code: "IE",
    offset: "Z",
    language: "en",
    dubs: false,
    screenLabel: "Screen",
    streets: ["O'Connell Street", "Grafton Street", "Patrick Street", "Shop Street"],
    numberFirst: true,
    independents: ["Light House Cinema", "Irish Film Institute", "Pálás", "Triskel Cinema"],
    cities: [
      city("Dublin", "dub", 53.3498, -6.2603, 12, ["D01", "D02", "D08"]),
      city("Cork", "ork", 51.8985, -8.4756, 4, ["T12", "T23"]),
      city("Galway", "gwy", 53.2707, -9.0568, 2, ["H91"]),
      city("Limerick", "lmk", 52.6638, -8.6267, 2, ["V94"]),
    ],
    postcode: eircode,
  }),
  country({
    code: "AT",
    offset: "+01:00",
    language: "de",
    dubs: true,
    screenLabel: "Saal",
    streets: ["Mariahilfer Straße", "Herrengasse", "Landstraße", "Getreidegasse"],
    independents: ["Filmcasino", "Votiv Kino", "Das Kino", "Leokino"],
    cities: [
      city("Wien", "vie", 48.2082, 16.3738, 12, [1010, 1230]),
      city("Graz", "grz", 47.0707, 15.4395, 4, [8010, 8055]),
      city("Linz", "lnz", 48.3069, 14.2858, 3, [4020, 4040]),
      city("Salzburg", "szg", 47.8095, 13.055, 2, [5020, 5026]),
    ],
    postcode: numeric(4),
  }),
  country({
    code: "CH",
    offset: "+01:00",
    language: "de",
    dubs: true,
    screenLabel: "Saal",
    streets: ["Bahnhofstrasse", "Rue du Rhône", "Freie Strasse", "Marktgasse"],
    independents: ["Kino Xenix", "Cinéma Bio", "Kult.kino", "Kino Rex"],
    cities: [
      city("Zürich", "zrh", 47.3769, 8.5417, 8, [8001, 8064]),
      city("Genève", "gva", 46.2044, 6.1432, 5, [1201, 1228]),
      city("Basel", "bsl", 47.5596, 7.5886, 4, [4001, 4059]),
      city("Bern", "brn", 46.948, 7.4474, 3, [3001, 3030]),
    ],
    postcode: numeric(4),
  }),
  country({
    code: "BE",
    offset: "+01:00",
    language: "fr",
    dubs: true,
    screenLabel: "Salle",
    streets: ["Rue Neuve", "Meir", "Veldstraat", "Boulevard d'Avroy"],
    independents: ["Cinéma Galeries", "Cinema Zuid", "Sphinx", "Le Parc"],
    cities: [
      city("Bruxelles", "bru", 50.8503, 4.3517, 10, [1000, 1210]),
      city("Antwerpen", "anr", 51.2194, 4.4025, 6, [2000, 2660]),
      city("Gent", "gnt", 51.0543, 3.7174, 4, [9000, 9052]),
      city("Liège", "lgg", 50.6326, 5.5797, 4, [4000, 4032]),
    ],
    postcode: numeric(4),
  }),
  country({
    code: "LU",
    offset: "+01:00",
    language: "fr",
    dubs: true,
    screenLabel: "Salle",
    streets: ["Grand-Rue", "Avenue de la Gare", "Rue de l'Alzette"],
    independents: ["Ciné Utopia", "Cinémathèque", "Kinosch"],
    cities: [
      city("Luxembourg", "lux", 49.6116, 6.1319, 4, [1009, 2999]),
      city("Esch-sur-Alzette", "esc", 49.4958, 5.9806, 1, [4001, 4499]),
    ],
    postcode: numeric(4, "L-####"),
  }),
  country({
    code: "SE",
    offset: "+01:00",
    language: "sv",
    dubs: false,
    screenLabel: "Salong",
    streets: ["Drottninggatan", "Kungsgatan", "Storgatan", "Avenyn"],
    independents: ["Bio Rio", "Zita Folkets Bio", "Capitol", "Spegeln"],
    cities: [
      city("Stockholm", "sto", 59.3293, 18.0686, 10, [11120, 11860]),
      city("Göteborg", "got", 57.7089, 11.9746, 5, [41101, 41879]),
      city("Malmö", "mmx", 55.605, 13.0038, 4, [21110, 21785]),
      city("Uppsala", "upp", 59.8586, 17.6389, 2, [75220, 75758]),
    ],
    postcode: numeric(5, "### ##"),
  }),
  country({
    code: "NO",
    offset: "+01:00",
    language: "nb",
    dubs: false,
    screenLabel: "Sal",
    streets: ["Karl Johans gate", "Torgallmenningen", "Nordre gate", "Kirkegata"],
    independents: ["Vega Scene", "Cinemateket", "Bergen Kino", "Prinsen Kino"],
    cities: [
      city("Oslo", "osl", 59.9139, 10.7522, 8, [150, 1295]),
      city("Bergen", "bgo", 60.3913, 5.3221, 4, [5003, 5099]),
      city("Trondheim", "trd", 63.4305, 10.3951, 3, [7010, 7099]),
      city("Stavanger", "svg", 58.97, 5.7331, 2, [4001, 4099]),
    ],
    postcode: numeric(4),
  }),
  country({
    code: "DK",
    offset: "+01:00",
    language: "da",
    dubs: false,
    screenLabel: "Sal",
    streets: ["Strøget", "Vesterbrogade", "Søndergade", "Vestergade"],
    independents: ["Grand Teatret", "Vester Vov Vov", "Øst for Paradis", "Café Biografen"],
    cities: [
      city("København", "cph", 55.6761, 12.5683, 8, [1050, 2450]),
      city("Aarhus", "aar", 56.1629, 10.2039, 4, [8000, 8270]),
      city("Odense", "ode", 55.4038, 10.4024, 2, [5000, 5270]),
      city("Aalborg", "aal", 57.0488, 9.9217, 2, [9000, 9220]),
    ],
    postcode: numeric(4),
  }),
  country({
    code: "FI",
    offset: "+02:00",
    language: "fi",
    dubs: false,
    screenLabel: "Sali",
    streets: ["Aleksanterinkatu", "Hämeenkatu", "Yliopistonkatu", "Kauppakatu"],
    independents: ["Kino Engel", "Kino Regina", "Niagara", "Kino Diana"],
    cities: [
      city("Helsinki", "hel", 60.1699, 24.9384, 8, [100, 990]),
      city("Tampere", "tmp", 61.4978, 23.761, 3, [33100, 33900]),
      city("Turku", "tku", 60.4518, 22.2666, 2, [20100, 20900]),
      city("Oulu", "oul", 65.0121, 25.4651, 2, [90100, 90900]),
    ],
    postcode: numeric(5),
  }),
  country({
    code: "IS",
    offset: "Z",
    language: "is",
    dubs: false,
    screenLabel: "Salur",
    streets: ["Laugavegur", "Hafnarstræti", "Skólavörðustígur"],
    independents: ["Bíó Paradís", "Háskólabíó", "Borgarbíó"],
    cities: [
      city("Reykjavík", "rkv", 64.1466, -21.9426, 4, [101, 155]),
      city("Akureyri", "aey", 65.6885, -18.1262, 1, [600, 603]),
    ],
    postcode: numeric(3),
  }),
  country({
    code: "IN",
    offset: "+05:30",
    language: "hi",
    dubs: true,
    screenLabel: "Audi",
    streets: ["MG Road", "Linking Road", "Park Street", "Anna Salai", "Connaught Place"],
    numberFirst: true,
    independents: ["Regal Cinema", "Maratha Mandir", "Liberty Cinema", "Priya Cinema", "Sathyam"],
    cities: [
      city("Mumbai", "bom", 19.076, 72.8777, 12, [400001, 400104]),
      city("Delhi", "del", 28.7041, 77.1025, 12, [110001, 110096]),
      city("Bengaluru", "blr", 12.9716, 77.5946, 8, [560001, 560100]),
      city("Chennai", "maa", 13.0827, 80.2707, 6, [600001, 600119]),
      city("Hyderabad", "hyd", 17.385, 78.4867, 6, [500001, 500096]),
      city("Kolkata", "ccu", 22.5726, 88.3639, 5, [700001, 700160]),
      city("Pune", "pnq", 18.5204, 73.8567, 4, [411001, 411062]),
    ],
    postcode: numeric(6),
  }),
  country({
    code: "AU",
    offset: "+11:00",
    language: "en",
    dubs: false,
    screenLabel: "Cinema",
    streets: ["George St", "Collins St", "Queen St", "Hay St", "Rundle Mall"],
    numberFirst: true,
    independents: ["Palace Cinemas", "Cinema Nova", "Dendy", "Luna Leederville", "The Astor"],
    cities: [
      city("Sydney", "syd", -33.8688, 151.2093, 12, [2000, 2234], "+11:00"),
      city("Melbourne", "mel", -37.8136, 144.9631, 11, [3000, 3207], "+11:00"),
      city("Brisbane", "bne", -27.4698, 153.0251, 6, [4000, 4179], "+10:00"),
      city("Perth", "per", -31.9523, 115.8613, 5, [6000, 6199], "+08:00"),
      city("Adelaide", "adl", -34.9285, 138.6007, 3, [5000, 5174], "+10:30"),
    ],
    postcode: numeric(4),
  }),
  country({
    code: "NZ",
    offset: "+13:00",
    language: "en",
    dubs: false,
    screenLabel: "Cinema",
    streets: ["Queen Street", "Lambton Quay", "Colombo Street", "Ponsonby Road"],
    numberFirst: true,
    independents: ["Academy Cinemas", "Embassy Theatre", "Lumière Cinema", "Rialto"],
    cities: [
      city("Auckland", "akl", -36.8485, 174.7633, 6, [600, 2699]),
      city("Wellington", "wlg", -41.2865, 174.7762, 3, [5010, 6972]),
      city("Christchurch", "chc", -43.5321, 172.6362, 2, [7600, 8083]),
    ],
    postcode: numeric(4),
  }),
  country({
    code: "BR",
    offset: "-03:00",
    language: "pt",
    dubs: true,
    screenLabel: "Sala",
    streets: ["Avenida Paulista", "Rua Augusta", "Avenida Atlântica", "Rua da Bahia"],
    independents: ["Cine Belas Artes", "Estação Net", "Cine Marquise", "Cine Humberto Mauro"],
    cities: [
      city("São Paulo", "sao", -23.5505, -46.6333, 14, [1000000, 5999999], "-03:00"),
      city("Rio de Janeiro", "rio", -22.9068, -43.1729, 8, [20000000, 23799999], "-03:00"),
      city("Brasília", "bsb", -15.7939, -47.8828, 4, [70000000, 72799999], "-03:00"),
      city("Belo Horizonte", "bhz", -19.9167, -43.9345, 4, [30000000, 31999999], "-03:00"),
      city("Manaus", "mao", -3.119, -60.0217, 2, [69000000, 69099999], "-04:00"),
    ],
    postcode: numeric(8, "#####-###"),
  }),
  country({
    code: "MX",
    offset: "-06:00",
    language: "es",
    dubs: true,
    screenLabel: "Sala",
    streets: ["Paseo de la Reforma", "Avenida Insurgentes", "Avenida Juárez", "Calle Madero"],
    independents: ["Cine Tonalá", "Cineteca Nacional", "Cine Lido", "Cinemanía"],
    cities: [
      city("Ciudad de México", "mex", 19.4326, -99.1332, 16, [1000, 16999], "-06:00"),
      city("Guadalajara", "gdl", 20.6597, -103.3496, 6, [44100, 45430], "-06:00"),
      city("Monterrey", "mty", 25.6866, -100.3161, 6, [64000, 64999], "-06:00"),
      city("Puebla", "pbc", 19.0414, -98.2063, 3, [72000, 72999], "-06:00"),
      city("Tijuana", "tij", 32.5149, -117.0382, 3, [22000, 22709], "-08:00"),
    ],
    postcode: numeric(5),
  }),
  country({
    code: "JP",
    offset: "+09:00",
    language: "ja",
    dubs: false,
    screenLabel: "Screen",
    streets: ["Ginza", "Shinjuku", "Namba", "Sakae", "Tenjin"],
    independents: ["Shin-Bungeiza", "Cinema Vera", "Theatre Shinjuku", "Cine Libre"],
    cities: [
      city("Tokyo", "tyo", 35.6762, 139.6503, 16, [1000001, 2080035]),
      city("Osaka", "osa", 34.6937, 135.5023, 8, [5300001, 5599999]),
      city("Nagoya", "ngo", 35.1815, 136.9066, 5, [4500001, 4680099]),
      city("Sapporo", "spk", 43.0618, 141.3545, 3, [600001, 699999]),
      city("Fukuoka", "fuk", 33.5904, 130.4017, 3, [8100001, 8190999]),
    ],
    postcode: numeric(7, "###-####"),
  }),
  country({
    code: "KR",
    offset: "+09:00",
    language: "ko",
    dubs: false,
    screenLabel: "Screen",
    streets: ["Teheran-ro", "Sejong-daero", "Haeundae-ro", "Dongseong-ro"],
    independents: ["Cinecube", "Arthouse Momo", "Lotte Art", "Cinematheque Seoul"],
    cities: [
      city("Seoul", "sel", 37.5665, 126.978, 16, [1000, 8899]),
      city("Busan", "pus", 35.1796, 129.0756, 6, [46000, 49599]),
      city("Incheon", "icn", 37.4563, 126.7052, 4, [21000, 23199]),
      city("Daegu", "tae", 35.8714, 128.6014, 3, [41000, 43099]),
    ],
    postcode: numeric(5),
  }),
];
