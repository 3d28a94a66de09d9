/**
 * Near spellings (decision: name search): when no name has every word of `q` as the start of one of
 * its words, each query word may instead be a misspelling, found within a few edits (restricted
 * Damerau-Levenshtein: insert, delete, substitute, or swap two neighbours, each one edit) of a whole
 * word, or of the start of a word for the query's last word (a search box's word still being typed).
 * A word spelt right as a start still costs nothing. Every word of the index is looked at: a length
 * and letter-set filter rejects most in a few operations, and a banded table with an early exit
 * measures the rest; a trie walk over the sorted words would branch at almost every word in scripts
 * whose words are one or two characters (Chinese, Japanese), and cost more than the scan.
 */
import type { Dictionary } from "../primitives/dictionary.js";
import type { NameIndex } from "../read/name-index.js";

/** A record's edits in `nearEdits`' answer when a query word finds none of its words. */
export const NO_EDITS = 255;

/**
 * Edits a query word of `length` characters (code points, folded) may be from what it finds: 0 up to
 * two (one edit from a one-letter word is any word), 1 up to five, 2 beyond.
 */
export function maxEditsOf(length: number): number {
  return length <= 2 ? 0 : length <= 5 ? 1 : 2;
}

/** Per word of an index: its length in code points (at most 255) and the set of its letters hashed to 32 bits. */
interface Vocabulary {
  lengths: Uint8Array;
  letters: Uint32Array;
}

/** Made on the first near search of an index, kept with it: 5 bytes a word. */
const vocabularies = new WeakMap<NameIndex, Vocabulary>();

function vocabularyOf(index: NameIndex): Vocabulary {
  let vocabulary = vocabularies.get(index);
  if (!vocabulary) vocabularies.set(index, (vocabulary = describeWords(index.wordDictionary)));
  return vocabulary;
}

/** The bit a code point sets in a letter set: a-z land on distinct bits, as do Greek and Cyrillic letters. */
const letterBit = (code: number) => 1 << (code & 31);

function describeWords(words: Dictionary): Vocabulary {
  const { bytes, offsets, count } = words;
  const lengths = new Uint8Array(count);
  const letters = new Uint32Array(count);
  for (let w = 0; w < count; w++) {
    let [length, set] = [0, 0];
    for (let p = offsets[w]!, end = offsets[w + 1]!; p < end; p += byteLength(bytes[p]!)) {
      set |= letterBit(codeAt(bytes, p));
      length++;
    }
    lengths[w] = Math.min(length, 255);
    letters[w] = set;
  }
  return { lengths, letters };
}

/** Bytes of the UTF-8 sequence a lead byte starts. */
const byteLength = (lead: number) => (lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4);

/** The code point of the UTF-8 sequence at `p` (the dictionary's text is valid UTF-8). */
function codeAt(bytes: Uint8Array, p: number): number {
  const lead = bytes[p]!;
  if (lead < 0x80) return lead;
  if (lead < 0xe0) return ((lead & 0x1f) << 6) | (bytes[p + 1]! & 0x3f);
  if (lead < 0xf0) return ((lead & 0x0f) << 12) | ((bytes[p + 1]! & 0x3f) << 6) | (bytes[p + 2]! & 0x3f);
  return (
    ((lead & 0x07) << 18) | ((bytes[p + 1]! & 0x3f) << 12) | ((bytes[p + 2]! & 0x3f) << 6) | (bytes[p + 3]! & 0x3f)
  );
}

/** Whether a set of at most 32 bits has more than `k` (0..2) of them. */
function hasMoreBits(bits: number, k: number): boolean {
  for (let i = 0; i < k && bits !== 0; i++) bits &= bits - 1;
  return bits !== 0;
}

/** A query word as measured against index words: its code points, its edits allowed, three columns of the table. */
export class NearWord {
  readonly codes: Int32Array;
  readonly maxEdits: number;
  private readonly letters: number;
  private columns: [Uint8Array, Uint8Array, Uint8Array];

  /** `text`: a folded query word; `asStart`: it may be the start of an index word (the query's last word). */
  constructor(
    readonly text: string,
    readonly asStart: boolean,
  ) {
    this.codes = Int32Array.from(text, (char) => char.codePointAt(0)!);
    this.maxEdits = maxEditsOf(this.codes.length);
    this.letters = this.codes.reduce((set, code) => set | letterBit(code), 0);
    const size = this.codes.length + 1;
    this.columns = [new Uint8Array(size), new Uint8Array(size), new Uint8Array(size)];
  }

  /** Whether an index word of `length` code points and `letters` may be near: a cheap test before `editsTo`. */
  mayReach(length: number, letters: number): boolean {
    const [m, k] = [this.codes.length, this.maxEdits];
    if (length < m - k || (!this.asStart && length > m + k)) return false;
    // Each edit loses at most one of the query's letters: more letters missing than edits, and it is not near.
    return !hasMoreBits(this.letters & ~letters, k);
  }

  /**
   * Edits from this word to the UTF-8 word bytes[from, to) (to its closest start when `asStart`), or
   * `maxEdits + 1` when more. The table has a column per character of the index word and a row per
   * query character, only its cells within `maxEdits` of the diagonal computed, each capped at
   * `maxEdits + 1`; it stops once no later column can come back within reach.
   */
  editsTo(bytes: Uint8Array, from: number, to: number): number {
    const q = this.codes;
    const [m, k] = [q.length, this.maxEdits];
    const over = k + 1;
    let [before, previous, current] = this.columns;
    for (let i = 0; i <= m; i++) previous[i] = Math.min(i, over);
    let best = previous[m]!;
    let [previousMin, previousCode] = [0, -1];
    let j = 0;
    for (let p = from; p < to; p += byteLength(bytes[p]!)) {
      const code = codeAt(bytes, p);
      j++;
      const lo = j > k ? j - k : 0;
      if (lo > m) return this.asStart ? best : over;
      const hi = Math.min(j + k, m);
      let columnMin = over;
      if (lo === 0) columnMin = current[0] = j;
      else current[lo - 1] = over;
      for (let i = lo === 0 ? 1 : lo; i <= hi; i++) {
        const queried = q[i - 1]!;
        let d = previous[i - 1]! + (queried === code ? 0 : 1);
        if (current[i - 1]! + 1 < d) d = current[i - 1]! + 1;
        if (previous[i]! + 1 < d) d = previous[i]! + 1;
        if (i > 1 && queried === previousCode && q[i - 2] === code && before[i - 2]! + 1 < d) d = before[i - 2]! + 1;
        current[i] = Math.min(d, over);
        if (d < columnMin) columnMin = d;
      }
      if (hi < m) current[hi + 1] = over;
      if (this.asStart && hi === m && current[m]! < best) best = current[m]!;
      // Later columns are at least min(this column's least, the one before's + 1): past reach, stop.
      if ((columnMin > k && previousMin >= k) || (this.asStart && best === 0)) return this.asStart ? best : over;
      const spare = before;
      before = previous;
      previous = current;
      current = spare;
      previousMin = columnMin;
      previousCode = code;
    }
    if (this.asStart) return best;
    return m - j <= k && j - m <= k ? previous[m]! : over;
  }
}

/**
 * Lowers `edits[r]` of every record r to the fewest edits from `word` to one of its words: 0 for the
 * words it starts (as exact search finds them), else within the word's reach; NO_EDITS is left where
 * none is.
 */
export function markNearWord(index: NameIndex, word: NearWord, edits: Uint8Array): void {
  const { lo, hi } = index.prefixRange(word.text);
  index.lowerCosts(lo, hi, edits, 0);
  if (word.maxEdits === 0) return;
  const { lengths, letters } = vocabularyOf(index);
  const { bytes, offsets, count } = index.wordDictionary;
  for (let w = 0; w < count; w++) {
    if (w === lo) w = hi;
    if (w >= count) break;
    if (!word.mayReach(lengths[w]!, letters[w]!)) continue;
    const cost = word.editsTo(bytes, offsets[w]!, offsets[w + 1]!);
    if (cost <= word.maxEdits) index.lowerCosts(w, w + 1, edits, cost);
  }
}

/**
 * Per record: the fewest edits in all that make every distinct word of `words` find one of its
 * words (the last word as a start), or NO_EDITS.
 */
export function nearEdits(index: NameIndex, words: readonly string[]): Uint8Array {
  const n = index.recordCount;
  const total = new Uint8Array(n);
  const last = words.at(-1);
  for (const text of new Set(words)) {
    const edits = new Uint8Array(n).fill(NO_EDITS);
    markNearWord(index, new NearWord(text, text === last), edits);
    let alive = false;
    for (let r = 0; r < n; r++) {
      if (total[r] === NO_EDITS) continue;
      // At most 34 edits in all (two per six letters of a 100-character query): never NO_EDITS.
      total[r] = edits[r] === NO_EDITS ? NO_EDITS : total[r]! + edits[r]!;
      alive ||= total[r] !== NO_EDITS;
    }
    if (!alive) break;
  }
  return total;
}
