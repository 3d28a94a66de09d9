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
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const words: string[] = [];
  for (const segment of segmenter.segment(text.normalize("NFC"))) {
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
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const words = new Set<string>();
  for (const segment of segmenter.segment(text.normalize("NFC"))) {
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
