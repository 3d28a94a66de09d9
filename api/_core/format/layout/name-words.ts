/**
 * The words of a name, as name search compares them (decision: name search), defined once for the
 * build, which indexes names, and the server, which reads a query: words are the word-like segments
 * of `Intl.Segmenter` (so Japanese, Chinese and Thai titles, which have no spaces, have words too),
 * each folded so that case, accents and a few spellings do not matter: `Köln` is `koln`, `Straße`
 * is `strasse`, `ＡＢＣ` is `abc`, `L'Odyssée` is `lodyssee` (and, as a word of its own, `odyssee`).
 */

/** Latin letters that do not decompose under NFKD, written as the letters they are searched by. */
const LETTERS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
  ŧ: "t",
};
const LETTER = new RegExp(`[${Object.keys(LETTERS).join("")}]`, "gu");

/**
 * Marks dropped after letters of scripts where they are accents (é, ü, ñ); in other scripts (Thai
 * vowels, Devanagari signs) a mark is part of the letter and stays.
 */
const ACCENTS = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;
/** Apostrophes inside a word (`L'Odyssée`, `don't`): left out of the word it is, and split at. */
const APOSTROPHES = /['’ʼ]/gu;

let segmenter: Intl.Segmenter | undefined;

/**
 * Text of Latin letters, ASCII digits, spaces and hyphens only (most place names, many titles): its
 * words are its runs between spaces and hyphens, as the segmenter finds them (UAX #29 keeps letters
 * and digits together and breaks at both), found 25 times faster. test/name-words.test.ts holds the
 * two to the same words on every name of the gazetteer's countries it reads.
 */
const PLAIN = /^[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F -]*$/;

const ASCII_WORD = /^[A-Za-z0-9]+$/;

/** The folded words of plain text (PLAIN); an ASCII word folds to its lower case. */
function plainWords(text: string): string[] {
  const words: string[] = [];
  for (const part of text.split(/[ -]+/)) {
    const word = part === "" ? "" : ASCII_WORD.test(part) ? part.toLowerCase() : foldWord(part);
    if (word !== "") words.push(word);
  }
  return words;
}

/** A word as it is compared: compatibility-decomposed, lower-cased, accents and apostrophes dropped. */
export function foldWord(word: string): string {
  return word
    .normalize("NFKD")
    .replace(ACCENTS, "$1")
    .toLowerCase()
    .replace(LETTER, (letter) => LETTERS[letter]!)
    .replace(APOSTROPHES, "")
    .normalize("NFC");
}

/** The folded words of a text, in order (empty when it has no letters or digits). */
export function wordsOf(text: string): string[] {
  const normal = text.normalize("NFC");
  if (PLAIN.test(normal)) return plainWords(normal);
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const words: string[] = [];
  for (const segment of segmenter.segment(normal)) {
    if (!segment.isWordLike) continue;
    const word = foldWord(segment.segment);
    if (word !== "") words.push(word);
  }
  return words;
}

/**
 * The words a name is found by: its words, and the parts of a word its apostrophes join (`lodyssee`
 * and `odyssee`), each once.
 */
export function indexWordsOf(text: string): string[] {
  const normal = text.normalize("NFC");
  // Plain text has no apostrophes: its words are all it is found by.
  if (PLAIN.test(normal)) return [...new Set(plainWords(normal))];
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const words = new Set<string>();
  for (const segment of segmenter.segment(normal)) {
    if (!segment.isWordLike) continue;
    const whole = foldWord(segment.segment);
    if (whole !== "") words.add(whole);
    const parts = segment.segment.split(APOSTROPHES);
    if (parts.length > 1) for (const part of parts.map(foldWord)) if (part !== "") words.add(part);
  }
  return [...words];
}

/** A name's words as one key, single spaces between: what whole-name and starts-with matches compare. */
export function nameKeyOf(text: string): string {
  return wordsOf(text).join(" ");
}
