/**
 * Near spellings (decision: name search): the edit distance (bit vectors up to 32 characters, a
 * banded table beyond) against the naive oracle's whole table for random words in several scripts,
 * the reach of a word at its bounds (5 letters: 1 edit found, 2 not; 6 letters: 2 found, 3 not),
 * every record's edits in a word index against the oracle, and, through the request core, names found by near
 * spellings only when none is found as typed, ranked by their edits after every typed match, said by
 * `nameMatch`, paged with cursors, and against the oracle over titles in Latin with accents,
 * Cyrillic, Greek, Japanese, Chinese and Arabic.
 */
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { wordsOf } from "../api/_core/format/layout/name-words.js";
import { encodeNames } from "../build/encode/encode-names.js";
import { namedMatches } from "../api/_core/format/query/cinema-selection.js";
import { maxEditsOf, NearWord } from "../api/_core/format/query/edit-distance.js";
import { nearEdits } from "../api/_core/format/query/near-spelling.js";
import type { PagedFile } from "../api/_core/format/primitives/paged-file.js";
import { NameIndex } from "../api/_core/format/read/name-index.js";
import type { Handler } from "../api/_core/handle-request.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { type Dataset, generateDataset } from "./helpers/dataset.js";
import { writeAccessFile } from "./helpers/http-setup.js";
import { naiveEdits, naiveNearEdits, naiveStartEdits } from "./helpers/near-spelling-oracle.js";
import { findingWords, foldedWords, nameRankIn } from "./helpers/query-oracle.js";
import { getJson, openDataset } from "./helpers/query-walk.js";
import { scaled } from "./helpers/deadlines.js";

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("near-spelling");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

/** The core's edits from `query` to `word`, or undefined past its reach. */
function coreEdits(query: string, word: string, asStart: boolean): number | undefined {
  const near = new NearWord(query, asStart);
  const bytes = Buffer.from(word, "utf8");
  const edits = near.editsTo(bytes, 0, bytes.length);
  return edits <= near.maxEdits ? edits : undefined;
}

describe("the edit table", () => {
  const LETTERS = ["abcde", "éèàçñ", "абвгд", "αβγδε", "千と尋の神", "ابتثج", "😀😁😂"];
  const wordArb = (letters: string) =>
    fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 9 }).map((chars) => chars.join(""));
  const pairArb = fc.constantFrom(...LETTERS).chain((letters) => fc.tuple(wordArb(letters), wordArb(letters)));

  /** The core's edits equal the naive table's within reach, undefined past it. */
  const agrees = ([query, word]: [string, string], asStart: boolean) => {
    const naive = asStart ? naiveStartEdits(query, word) : naiveEdits(query, word);
    const reach = maxEditsOf([...query].length);
    expect(coreEdits(query, word, asStart)).toBe(naive <= reach ? naive : undefined);
  };

  test("equals the naive table within reach, whole word and start of a word, in any script", () => {
    fc.assert(fc.property(pairArb, fc.boolean(), agrees), { numRuns: 3000, seed: 20_261_201 });
  });

  // Up to 32 characters a query word is measured with bit vectors, beyond on the banded table.
  test("equals it for words of 29 to 36 characters, a few edits apart", () => {
    const longArb = fc
      .tuple(
        fc.constantFrom(...LETTERS),
        fc.integer({ min: 29, max: 36 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }),
      )
      .chain(([letters, length, edits]) =>
        fc.array(fc.constantFrom(...letters), { minLength: length, maxLength: length }).map((chars) => {
          const word = [...chars];
          for (const [at, to] of edits) word[at % word.length] = [...letters][to % [...letters].length]!;
          if (edits.length === 3) word.splice(edits[0]![0] % word.length, 1);
          return [chars.join(""), word.join("")] as [string, string];
        }),
      );
    fc.assert(fc.property(longArb, fc.boolean(), agrees), { numRuns: 1000, seed: 20_261_203 });
  });

  test.each([
    // [why, query word, index word, as a start, edits or undefined]
    ["5 letters, 1 edit (a substitution): found", "odeom", "odeon", false, 1],
    ["5 letters, 2 edits: not found", "odemm", "odeon", false, undefined],
    ["6 letters, 1 edit (a letter left out): found", "lumire", "lumiere", false, 1],
    ["6 letters, 2 edits (two substitutions): found", "cinexx", "cinema", false, 2],
    ["6 letters, 3 edits: not found", "cixexx", "cinema", false, undefined],
    ["3 letters, 1 edit: found", "kni", "kino", true, 1],
    ["2 letters: only as typed", "ki", "ko", false, undefined],
    ["1 letter: only as typed", "x", "y", true, undefined],
    ["a swap of neighbours is 1 edit", "leicsetre", "leicester", false, 2],
    ["a swap at the start", "doeon", "odeon", false, 1],
    ["a letter left out (Leicster)", "leicster", "leicester", false, 1],
    ["a letter doubled (Potsdammer)", "potsdammer", "potsdamer", false, 1],
    ["the last word, misspelt, as a start", "leicst", "leicester", true, 1],
    ["a word before the last is whole: a start is too far", "leicst", "leicester", false, undefined],
    ["a word spelt right costs nothing", "odeon", "odeon", false, 0],
  ] as const)("%s", (_why, query, word, asStart, edits) => {
    expect(coreEdits(query, word, asStart)).toBe(edits);
  });

  // Before the edit table, a word must keep all but k of the query's characters, each at most k places
  // from where it was: these sit at that bound, and on letters whose set bit is the sign bit (п, ο).
  test.each([
    // [why, query word, index word, as a start, edits or undefined]
    ["two letters put in front: each kept one 2 places on, found", "abcdef", "xxabcdef", false, 2],
    ["three put in front: 3 places on, not found", "abcdef", "xxxabcdef", false, undefined],
    ["the same before a start", "abcdef", "xxabcdefgh", true, 2],
    ["and three before a start", "abcdef", "xxxabcdefgh", true, undefined],
    ["two letters after: found", "abcdef", "abcdefxx", false, 2],
    ["three after: not found", "abcdef", "abcdefxxx", false, undefined],
    ["two swaps, each letter one place off", "bacdfe", "abcdef", false, 2],
    ["Cyrillic, a swap and a letter doubled, as a start", "привтее", "привет", true, 2],
    ["Greek, a letter left out", "οδυσσεια", "οδυσσια", false, 1],
    ["Greek, 3 letters, one changed", "ποπ", "πορ", false, 1],
    ["characters of four bytes, a swap", "😀😁😂x", "😀😂😁x", false, 1],
    ["2 letters: as typed", "ab", "ab", false, 0],
    ["2 letters: a swap is too far", "ab", "ba", false, undefined],
    ["1 letter: only as typed", "a", "b", true, undefined],
    [
      "32 letters, two put after",
      `${"a".repeat(16)}${"b".repeat(16)}`,
      `${"a".repeat(16)}${"b".repeat(16)}cc`,
      false,
      2,
    ],
    [
      "32 letters, two put in front",
      `${"a".repeat(16)}${"b".repeat(16)}`,
      `cc${"a".repeat(16)}${"b".repeat(16)}`,
      false,
      2,
    ],
    [
      "32 letters, three in front",
      `${"a".repeat(16)}${"b".repeat(16)}`,
      `ccc${"a".repeat(16)}${"b".repeat(16)}`,
      false,
      undefined,
    ],
    ["32 letters, a swap at the end", "abcdefghijklmnopqrstuvwxyzabcdef", "abcdefghijklmnopqrstuvwxyzabcdfe", false, 1],
    [
      "32 letters, a swap at the start",
      "abcdefghijklmnopqrstuvwxyzabcdef",
      "bacdefghijklmnopqrstuvwxyzabcdefg",
      true,
      1,
    ],
    [
      "33 letters (the banded table), two changes",
      `${"a".repeat(16)}${"b".repeat(17)}`,
      `${"a".repeat(15)}c${"b".repeat(16)}d`,
      false,
      2,
    ],
    [
      "33 letters, three put in front",
      `${"a".repeat(16)}${"b".repeat(17)}`,
      `xyz${"a".repeat(16)}${"b".repeat(17)}`,
      false,
      undefined,
    ],
  ] as const)("at the bound of what a word keeps: %s", (_why, query, word, asStart, edits) => {
    expect(coreEdits(query, word, asStart)).toBe(edits);
    const naive = asStart ? naiveStartEdits(query, word) : naiveEdits(query, word);
    expect(naive <= maxEditsOf([...query].length) ? naive : undefined, "the oracle agrees").toBe(edits);
  });

  test.each([
    [1, 0],
    [2, 0],
    [3, 1],
    [5, 1],
    [6, 2],
    [40, 2],
  ])("a word of %i characters may be %i edits away", (length, edits) => {
    expect(maxEditsOf(length)).toBe(edits);
  });
});

// ---- A word index in memory, against the oracle ----

/** The films' word index the build writes for these titles, read as a snapshot reads it. */
function indexOf(titles: readonly string[]): NameIndex {
  const records = titles.map((title, i) => ({ id: `f${i}`, json: Buffer.from(JSON.stringify({ title })) }));
  const sections = encodeNames("films", records);
  const section = (name: string) => sections.get(name)!;
  const file = {
    file: { name: "memory" },
    readSection: section,
    readUint32Section: (name: string) => new Uint32Array(Uint8Array.from(section(name)).buffer),
  };
  return new NameIndex(file as unknown as PagedFile, "films", titles.length);
}

describe("near spellings of a word index", () => {
  // Few letters, so that words share their starts and differ by an edit or two.
  const SCRIPTS = ["abcdeé", "абвгд", "αβγδ", "千と尋の", "ابتث"];
  const indexArb = fc.constantFrom(...SCRIPTS).chain((letters) => {
    const word = fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 8 }).map((c) => c.join(""));
    const title = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));
    const query = fc.array(word, { minLength: 1, maxLength: 2 }).map((words) => words.join(" "));
    return fc.tuple(
      fc.uniqueArray(title, { minLength: 1, maxLength: 40 }),
      fc.array(query, { minLength: 1, maxLength: 8 }),
    );
  });

  test("each record's edits are the naive oracle's, every word looked at, in any script", () => {
    fc.assert(
      fc.property(indexArb, ([titles, queries]) => {
        const index = indexOf(titles);
        for (const q of queries) {
          const edits: Array<number | undefined> = titles.map(() => undefined);
          const near = nearEdits(index, wordsOf(q));
          near.records.forEach((record, k) => (edits[record] = near.edits[k]));
          expect(new Set(near.records).size, "each record once").toBe(near.records.length);
          const naive = titles.map((title) => naiveNearEdits(findingWords(title), foldedWords(q)));
          expect(edits, `q=${q} over ${JSON.stringify(titles)}`).toEqual(naive);
        }
      }),
      { numRuns: 300, seed: 20_261_204 },
    );
  });
});

describe("near spellings of a word index, case by case", () => {
  // Each against the oracle: the records found from the postings of the words found, each once.
  test.each([
    // [why, titles, q]
    ["a name with two words near one query word: the fewer edits", ["Odeom Odeon", "Odeom"], "odeonn"],
    [
      "two query words: a name needs both, their edits summed",
      ["Odeon Leicester", "Odeon", "Leicester"],
      "odeom leicster",
    ],
    [
      "a query word spelt right costs nothing, the other its edits",
      ["Odeon Leicester", "Odeon Brixton"],
      "odeon leicster",
    ],
    ["a word twice in the query counts once", ["Kino Kino", "Kino Lumiere"], "kinno kinno"],
    [
      "a word of many names and one of few",
      ["Regal A", "Regal B", "Regal C", "Regal Boston", "Rialto Boston"],
      "regal bostn",
    ],
    ["one query word finds nothing: no name", ["Odeon Leicester"], "odeom zzzzzz"],
    ["the last word as a start, the one before whole", ["Potsdamer Platz", "Potsdam Plaza"], "potsdammer pl"],
    ["a word before the last is whole: its start is too far", ["Potsdamer Platz"], "potsdm platz"],
    ["the same word last: a start, found", ["Potsdamer Platz"], "platz potsdm"],
    ["1- and 2-letter words only as typed", ["Kino A", "Kino B", "Ab Cd", "Kino Bar"], "kino ba"],
    ["letters on the sign bit (п, ο), non-Latin", ["Привет Amélie", "Amélie", "Ποπ Art"], "привтее"],
    ["Greek with a letter changed", ["Ποπ Art", "Πορ"], "ποπ"],
    [
      "a word of 33 letters, two edits",
      [`${"a".repeat(16)}${"b".repeat(17)} X`, "Y"],
      `${"a".repeat(15)}c${"b".repeat(16)}d`,
    ],
    ["a start of 32 letters, a swap", ["abcdefghijklmnopqrstuvwxyzabcdefgh Z"], "bacdefghijklmnopqrstuvwxyzabcdef"],
  ])("%s", (_why, titles, q) => {
    const index = indexOf(titles);
    const near = nearEdits(index, wordsOf(q));
    expect(new Set(near.records).size, "each record once").toBe(near.records.length);
    const edits: Array<number | undefined> = titles.map(() => undefined);
    near.records.forEach((record, k) => (edits[record] = near.edits[k]));
    const naive = titles.map((title) => naiveNearEdits(findingWords(title), foldedWords(q)));
    expect(edits).toEqual(naive);
    // Asked again, and after another search, the same (the marks are reused from call to call).
    nearEdits(index, wordsOf("zzz"));
    expect(nearEdits(index, wordsOf(q))).toEqual(near);
  });
});

describe("the cinemas a name finds, in the list's order", () => {
  // By rank, then index (id order): rank and index sorted as one number, a double past 2^24 cinemas.
  test.each([
    ["none", [], [], []],
    [
      "one rank, indexes in any order",
      [7, 2, 5],
      [3, 3, 3],
      [
        [2, 2],
        [5, 2],
        [7, 2],
      ],
    ],
    [
      "ranks first, then index",
      [1, 9, 4, 0],
      [5, 3, 4, 3],
      [
        [0, 2],
        [9, 2],
        [4, 3],
        [1, 4],
      ],
    ],
    [
      "indexes at and past 2^24",
      [2 ** 24 + 1, 5, 2 ** 24, 3],
      [1, 4, 1, 4],
      [
        [2 ** 24, 0],
        [2 ** 24 + 1, 0],
        [3, 3],
        [5, 3],
      ],
    ],
    [
      "the highest rank below 2^24",
      [2 ** 24 - 1, 0],
      [255, 255],
      [
        [0, 254],
        [2 ** 24 - 1, 254],
      ],
    ],
  ])("%s", (_why, records, ranks, expected) => {
    const matches = namedMatches({ records, ranks });
    expect(matches.map((m) => [m.index, m.rank])).toEqual(expected);
    expect(matches.every((m) => Number.isNaN(m.distanceKm))).toBe(true);
  });
});

/** A dataset whose films have these titles (and their showtimes only). */
function withTitles(titles: readonly string[], seed = 1): Dataset {
  const base = generateDataset({ seed, showtimes: 20, films: titles.length });
  const films = base.films.slice(0, titles.length).map((f, i) => ({ ...f, title: titles[i]! }));
  return { ...base, films, showtimes: base.showtimes.filter((s) => films.some((f) => f.id === s.filmId)) };
}

/** Every page of `/v1/films?q=`, walked with `limit`: the titles and each page's `nameMatch`. */
async function walk(handle: Handler, q: string, limit = 2): Promise<{ titles: string[]; nameMatch: unknown[] }> {
  const titles: string[] = [];
  const nameMatch: unknown[] = [];
  let cursor: string | null = null;
  do {
    const url = `/v1/films?limit=${limit}&q=${encodeURIComponent(q)}${cursor ? `&cursor=${cursor}` : ""}`;
    const body = await getJson(handle, url);
    titles.push(...body.data.map((f: { title: string }) => f.title));
    nameMatch.push(body.nameMatch);
    cursor = body.pagination.nextCursor;
  } while (cursor);
  return { titles, nameMatch };
}

describe("through the request core", () => {
  const TITLES = ["Odeon Leicester", "Odeon Lecester", "Nordlicht", "Orbit of Ash", "Orbital", "Glass Kingdom"];
  let handle: Handler;
  beforeAll(async () => {
    handle = await openDataset(withTitles(TITLES), path.join(root, "table"), accessFile);
  });

  test.each([
    // [why, q, the titles found in order, what the pages say: nameMatch, or "-" for nothing]
    ["found as typed: no near spellings beside it (Orbit is 2 edits away)", "orbital", ["Orbital"], "-"],
    [
      "a misspelt word: near spellings, fewest edits first",
      "odeon leicster",
      ["Odeon Leicester", "Odeon Lecester"],
      "near",
    ],
    ["fewest edits first, then the list's order", "odeon lecster", ["Odeon Lecester", "Odeon Leicester"], "near"],
    ["a swap of neighbours", "nrodlicht", ["Nordlicht"], "near"],
    ["the last word as the start of a word, misspelt", "glass kingdm", ["Glass Kingdom"], "near"],
    ["a word spelt right and one misspelt", "of ahs", ["Orbit of Ash"], "near"],
    ["too far: nothing, and nothing said", "qqqqq", [], "-"],
    ["a short word is never near: nothing", "od xy", [], "-"],
  ] as const)("%s (%s)", async (_why, q, titles, said) => {
    const walked = await walk(handle, q);
    expect(walked.titles).toEqual(titles);
    expect(new Set(walked.nameMatch)).toEqual(new Set([said === "-" ? undefined : said]));
  });

  test("near spellings page with cursors of small pages, every page saying so", async () => {
    for (const limit of [1, 2, 3]) {
      const walked = await walk(handle, "odeon leicster", limit);
      expect(walked.titles).toEqual(["Odeon Leicester", "Odeon Lecester"]);
      expect(walked.nameMatch.every((said) => said === "near")).toBe(true);
    }
  });

  test("other filters narrow near spellings; none left is an empty page that says nothing", async () => {
    const body = await getJson(handle, "/v1/films?q=nordlict&date=2027-01-01");
    expect(body).toMatchObject({ data: [], pagination: { hasMore: false } });
    expect(body.nameMatch).toBeUndefined();
  });
});

// ---- Against the naive oracle, over titles in several scripts ----

const WORDS = [
  "Amélie",
  "Köln",
  "Straße",
  "Leicester",
  "Potsdamer",
  "Ёлка",
  "Привет",
  "Москва",
  "Ωμέγα",
  "Αθήνα",
  "東京物語",
  "千と千尋の神隠し",
  "电影院",
  "القاهرة",
  "سينما",
  "Lumière",
  "Odyssée",
];

/** Titles of one to three words. */
const titleArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));

/** A word or two of a title, one maybe misspelt by an edit or two (a letter changed, dropped, doubled, swapped). */
const typoArb = (titles: readonly string[]) =>
  fc
    .record({
      title: fc.nat(),
      word: fc.nat(),
      two: fc.boolean(),
      last: fc.boolean(),
      edits: fc.array(fc.tuple(fc.constantFrom("change", "drop", "double", "swap"), fc.nat()), { maxLength: 2 }),
    })
    .map(({ title, word, two, last, edits }) => {
      const words = wordsOf(titles[title % titles.length]!);
      const at = word % words.length;
      const picked = words.slice(at, two ? at + 2 : at + 1);
      const which = last ? picked.length - 1 : 0;
      let chars = [...picked[which]!];
      for (const [edit, i] of edits.map(([edit, n]) => [edit, n % chars.length] as const)) {
        if (edit === "change") chars[i] = chars[i] === "z" ? "y" : "z";
        if (edit === "drop" && chars.length > 1) chars = chars.filter((_, j) => j !== i);
        if (edit === "double") chars.splice(i, 0, chars[i]!);
        if (edit === "swap" && i + 1 < chars.length) [chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!];
      }
      picked[which] = chars.join("");
      return picked.join(" ");
    });

test("q finds what the naive oracle finds, near spellings included, in that order, on every page", {
  timeout: scaled(300_000),
}, async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(titleArb, { minLength: 1, maxLength: 10 }), fc.nat(1000), async (titles, seed) => {
      const dir = path.join(root, `oracle-${run++}`);
      try {
        const dataset = withTitles(titles, seed);
        const handle = await openDataset(dataset, dir, accessFile);
        for (const q of fc.sample(typoArb(titles), { numRuns: 12, seed })) {
          const ranked = dataset.films
            .map((f) => ({ f, rank: nameRankIn(dataset, "films", [f.title], q) }))
            .filter((x) => x.rank !== undefined)
            .sort((a, b) => a.rank! - b.rank! || (a.f.id < b.f.id ? -1 : a.f.id > b.f.id ? 1 : 0));
          const walked = await walk(handle, q, 1 + (seed % 3));
          expect(walked.titles, `q=${JSON.stringify(q)} over ${JSON.stringify(titles)}`).toEqual(
            ranked.map((x) => x.f.title),
          );
          const near = ranked.length > 0 && ranked[0]!.rank! > 2 ? "near" : undefined;
          expect(new Set(walked.nameMatch)).toEqual(new Set([near]));
        }
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: 8, seed: Number(process.env.FC_SEED ?? 20_261_202) },
  );
});
