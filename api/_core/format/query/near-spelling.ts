/**
 * Near spellings (decision: name search): when no name has every word of `q` as the start of one of
 * its words, each query word may instead be a misspelling, within a few edits (edit-distance.ts) of
 * a whole word, or of the start of a word for the query's last word (a search box's word still being
 * typed); a word spelt right as a start still costs nothing. Every word of the index is looked at:
 * its length and the set of its letters reject most in a few operations, the edit distance measures
 * the rest. Sets of a word's first letters rejected more words but cost as much as they saved; a
 * trie walk over the sorted words prunes little before the third character with two edits allowed,
 * and branches at almost every word in Chinese and Japanese, whose words are one or two characters.
 */
import type { Dictionary } from "../primitives/dictionary.js";
import { byteLength, codeAt, letterBit, NearWord } from "./edit-distance.js";
import type { NameIndex, WordRange } from "../read/name-index.js";

/** A record's edits in `nearEdits`' answer when a query word finds none of its words. */
export const NO_EDITS = 255;

/**
 * Per word of an index: its length in code points (at most 255), the set of its letters, each a bit
 * (letterBit), and the set of its first START letters. Made on the first near search of an index and
 * kept with it: 9 bytes a word.
 */
interface Vocabulary {
  lengths: Uint8Array;
  letters: Uint32Array;
  starts: Uint32Array;
}

/**
 * A start within reach of a query word of m characters has at most m + maxEdits: up to 8, most words'
 * first letters.
 */
const START = 8;

const vocabularies = new WeakMap<NameIndex, Vocabulary>();

function vocabularyOf(index: NameIndex): Vocabulary {
  let vocabulary = vocabularies.get(index);
  if (!vocabulary) vocabularies.set(index, (vocabulary = describeWords(index.wordDictionary)));
  return vocabulary;
}

function describeWords({ bytes, offsets, count }: Dictionary): Vocabulary {
  const lengths = new Uint8Array(count);
  const letters = new Uint32Array(count);
  const starts = new Uint32Array(count);
  for (let w = 0; w < count; w++) {
    let [length, set] = [0, 0];
    for (let p = offsets[w]!, end = offsets[w + 1]!; p < end; p += byteLength(bytes[p]!)) {
      set |= letterBit(codeAt(bytes, p));
      if (++length === START) starts[w] = set;
    }
    lengths[w] = Math.min(length, 255);
    letters[w] = set;
    if (length < START) starts[w] = set;
  }
  return { lengths, letters, starts };
}

/**
 * The first index word from `w` on that `word` may be within reach of (`count` when none is): one
 * loop over the vocabulary's arrays, a few operations a word. Its length must be within reach, and
 * each edit loses at most one of the query's letters and brings at most one it lacks (counted on a
 * whole word only: a start may be shorter).
 */
function nextCandidate({ lengths, letters, starts }: Vocabulary, word: NearWord, w: number, count: number): number {
  const [minLength, maxLength, k] = [word.minLength, Math.min(word.maxLength, 255), word.maxEdits];
  const wanted = word.letters;
  const foreign = word.asStart ? 0 : ~wanted;
  // The query's letters lie in the start it is near: in the first START letters when that is as long.
  const held = word.asStart && word.codes.length + k <= START ? starts : letters;
  for (; w < count; w++) {
    const length = lengths[w]!;
    if (length < minLength || length > maxLength) continue;
    // Plain variables, no destructuring: this loop runs once per word of the index.
    let missing = wanted & ~held[w]!;
    let extra = letters[w]! & foreign;
    // k is 1 or 2: drop that many of each, and any left is one letter too many.
    missing &= missing - 1;
    extra &= extra - 1;
    if (k === 2) {
      missing &= missing - 1;
      extra &= extra - 1;
    }
    if (missing === 0 && extra === 0) return w;
  }
  return count;
}

/**
 * Lowers `edits[r]` of every record r to the fewest edits from `word` to one of its words: 0 for the
 * words it starts (as exact search finds them), else within the word's reach; NO_EDITS is left where
 * none is. Whether it found any word.
 */
function markNearWord(
  index: NameIndex,
  word: NearWord,
  edits: Uint8Array,
  { lo, hi }: WordRange = index.prefixRange(word.text),
): boolean {
  index.lowerCosts(lo, hi, edits, 0);
  let found = lo < hi;
  if (word.maxEdits === 0) return found;
  const vocabulary = vocabularyOf(index);
  const { bytes, offsets, count } = index.wordDictionary;
  for (
    let w = nextCandidate(vocabulary, word, 0, count);
    w < count;
    w = nextCandidate(vocabulary, word, w + 1, count)
  ) {
    // The words it starts cost nothing, and are marked so.
    if (w >= lo && w < hi) continue;
    const cost = word.editsTo(bytes, offsets[w]!, offsets[w + 1]!);
    if (cost > word.maxEdits) continue;
    index.lowerCosts(w, w + 1, edits, cost);
    found = true;
  }
  return found;
}

/** Adds a word's edits into the sums, record by record (NO_EDITS in either is NO_EDITS); whether a record is left. */
function addEdits(total: Uint8Array, edits: Uint8Array): boolean {
  let left = false;
  for (let r = 0; r < total.length; r++) {
    const sum = total[r]!;
    const more = edits[r]!;
    if (sum === NO_EDITS) continue;
    // At most 34 edits in all (two per six letters of a 100-character query): a sum is never NO_EDITS.
    if (more === NO_EDITS) total[r] = NO_EDITS;
    else {
      total[r] = sum + more;
      left = true;
    }
  }
  return left;
}

/**
 * Per record: the fewest edits in all that make every distinct word of `words` find one of its
 * words (the last word as a start), or NO_EDITS. `ranges`: the words each starts, when known.
 */
export function nearEdits(
  index: NameIndex,
  words: readonly string[],
  ranges?: ReadonlyMap<string, WordRange>,
): Uint8Array {
  const n = index.recordCount;
  const last = words.at(-1);
  let total: Uint8Array | undefined;
  for (const text of new Set(words)) {
    const edits = new Uint8Array(n).fill(NO_EDITS);
    const found = markNearWord(index, new NearWord(text, text === last), edits, ranges?.get(text));
    if (!found) return edits;
    if (!total) total = edits;
    else if (!addEdits(total, edits)) break;
  }
  return total ?? new Uint8Array(n).fill(NO_EDITS);
}
