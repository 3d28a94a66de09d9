/**
 * Discovery (decision: discovery, name search) against the brute-force oracle: films and cinemas
 * derived from the showtimes for random filters (each film or cinema listed when one of its
 * showtimes matches all of them, with its count, cinemas and first showtime, in the documented
 * order), `q` over names in several scripts against a naive fold-and-prefix oracle, every page
 * walked to the end, and cursors taken before a rebuild resuming after their record's key.
 *
 * Reproducible by default; FC_SEED=<n> explores another part of the space.
 */
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LIST_TABLES } from "../api/_core/endpoints/parse-request.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { type Dataset, generateDataset } from "./helpers/dataset.js";
import { writeAccessFile } from "./helpers/http-setup.js";
import { nameRankIn, queryArb } from "./helpers/query-oracle.js";
import {
  checkCursorsAcrossRebuild,
  checkRandomQueries,
  getJson,
  openDataset,
  type QuerySpec,
} from "./helpers/query-walk.js";
import { scaled } from "./helpers/deadlines.js";

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("discovery");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

/** The filters apps combine most (a place, a day, a name, a film or cinema) often; the rest now and then. */
const PRESENCE = {
  q: 0.4,
  date: 0.4,
  near: 0.35,
  cinemaId: 0.3,
  filmId: 0.3,
  countryCode: 0.2,
  chainId: 0.2,
  dayStartsAt: 0.5,
  startsAfter: 0.15,
  startsBefore: 0.1,
  attributeIds: 0.15,
};

const discoverySpecArb: fc.Arbitrary<QuerySpec> = fc
  .constantFrom("films" as const, "cinemas" as const)
  .chain((resource) =>
    fc.record({
      query: queryArb(resource, LIST_TABLES[resource], PRESENCE),
      limits: fc.array(fc.constantFrom(1, 2, 3, 25), { minLength: 1, maxLength: 3 }),
    }),
  );

test("films and cinemas by where, when and name page through exactly what the showtimes say", {
  timeout: scaled(300_000),
}, async () => {
  const specs = fc.array(discoverySpecArb, { minLength: 8, maxLength: 16 });
  await checkRandomQueries(specs, { root, accessFile, runs: 10, seed: 20_261_129 });
});

test("a discovery cursor from before a rebuild resumes right after its record's key", {
  timeout: scaled(300_000),
}, async () => {
  // The rebuild drops every third showtime: counts, cinemas and first showtimes change.
  const rebuilt = (before: Dataset): Dataset => ({
    ...before,
    showtimes: before.showtimes.filter((_, i) => i % 3 !== 0),
  });
  const specs = fc.array(discoverySpecArb, { minLength: 4, maxLength: 8 });
  await checkCursorsAcrossRebuild(specs, rebuilt, { root, accessFile, runs: 4, seed: 20_261_130, pageAfter: 25 });
});

// ---- Names in several scripts, against the naive oracle ----

const WORDS = [
  [
    "Dune",
    "Amélie",
    "Straße",
    "Köln",
    "L'Odyssée",
    "Ørsted",
    "Łódź",
    "naïve",
    "ÉCOLE",
    "don’t",
    "Spider-Man",
    "Ⅻ",
    "ﬁlm",
  ],
  ["Ωμέγα", "Ἀθῆναι", "Ёлка", "Привет", "Ščedrý"],
  ["千と千尋の神隠し", "東京物語", "となりのトトロ", "ハウルの動く城"],
  ["ภาพยนตร์", "สวัสดี", "ครับ"],
  ["2049", "3D", "x²"],
];
/**
 * Titles of one to three words, few of them distinct, so that one word is whole titles, starts others and sits
 * inside more.
 */
const titleArb = fc
  .array(fc.tuple(fc.nat({ max: WORDS.length - 1 }), fc.nat({ max: 2 })), { minLength: 1, maxLength: 3 })
  .chain((picks) =>
    fc
      .constantFrom(" ", ": ", " - ", ", ")
      .map((glue) => picks.map(([s, w]) => WORDS[s]![w % WORDS[s]!.length]!).join(glue)),
  );

/** A query made from a title: a word or two of it, cut, in another case, with spaces around; or a word of another. */
const nameQueryArb = (titles: readonly string[]) =>
  fc
    .record({ title: fc.nat(), word: fc.nat(), two: fc.boolean(), cut: fc.nat({ max: 2 }), upper: fc.boolean() })
    .map(({ title, word, two, cut, upper }) => {
      const segmenter = new Intl.Segmenter("und", { granularity: "word" });
      const words = [...segmenter.segment(titles[title % titles.length]!)]
        .filter((s) => s.isWordLike)
        .map((s) => s.segment);
      if (words.length === 0) return "x";
      const at = word % words.length;
      let text = words.slice(at, two ? at + 2 : at + 1).join(" ");
      if (cut > 0 && [...text].length > cut) text = [...text].slice(0, -cut).join("");
      return `  ${upper ? text.toUpperCase() : text.toLowerCase()} `;
    });

test("q finds every title whose words start with the query's (else near spellings), in any script, ranked", {
  timeout: scaled(300_000),
}, async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(titleArb, { minLength: 1, maxLength: 14 }),
      fc.integer({ min: 0, max: 1000 }),
      async (titles, seed) => {
        const dir = path.join(root, `names-${run++}`);
        try {
          const base = generateDataset({ seed, showtimes: 20, films: titles.length });
          const films = base.films.slice(0, titles.length).map((f, i) => ({ ...f, title: titles[i]! }));
          const dataset: Dataset = {
            ...base,
            films,
            showtimes: base.showtimes.filter((s) => films.some((f) => f.id === s.filmId)),
          };
          const handle = await openDataset(dataset, dir, accessFile);
          const queries = fc.sample(nameQueryArb(titles), { numRuns: 12, seed });
          for (const q of queries) {
            const expected = films
              .map((f) => ({ f, rank: nameRankIn(dataset, "films", [f.title], q) }))
              .filter((x) => x.rank !== undefined)
              .sort((a, b) => a.rank! - b.rank! || (a.f.id < b.f.id ? -1 : a.f.id > b.f.id ? 1 : 0))
              .map((x) => x.f);
            const got: unknown[] = [];
            let cursor: string | null = null;
            let page = 0;
            do {
              // Small pages, so that cursors cross from one rank to the next.
              const limit = 1 + (page++ % 3);
              const url = `/v1/films?limit=${limit}&q=${encodeURIComponent(q)}${cursor ? `&cursor=${cursor}` : ""}`;
              const body = await getJson(handle, url);
              got.push(...body.data);
              cursor = body.pagination.nextCursor;
            } while (cursor);
            expect(got, `q=${JSON.stringify(q)} over ${JSON.stringify(titles)}`).toEqual(expected);
          }
        } finally {
          removeDir(dir);
        }
      },
    ),
    { numRuns: 8, seed: Number(process.env.FC_SEED ?? 20_261_131) },
  );
});
