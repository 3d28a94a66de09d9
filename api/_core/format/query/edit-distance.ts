/**
 * Bounded edit distance from a query word to index words stored as UTF-8 (decision: name search,
 * near spellings): restricted Damerau-Levenshtein (insert, delete, change, or swap two neighbours,
 * each one edit; "optimal string alignment") over code points, to a whole word or to its closest
 * start. A word of up to 32 code points is measured with bit vectors (Myers' algorithm with Hyyrö's
 * transposition term: a few operations per character of the index word, whatever the query's
 * length); a longer one on a table banded to the edits allowed, stopped once no later column can
 * come back within reach.
 */

/**
 * Edits a query word of `length` characters (code points, folded) may be from what it finds: 0 up to
 * two (one edit from a one-letter word is any word), 1 up to five, 2 beyond.
 */
export function maxEditsOf(length: number): number {
  return length <= 2 ? 0 : length <= 5 ? 1 : 2;
}

/** The bit a code point sets in a letter set: a-z land on distinct bits, as do Greek and Cyrillic letters. */
export const letterBit = (code: number) => 1 << (code & 31);

/** Bytes of the UTF-8 sequence a lead byte starts. */
export const byteLength = (lead: number) => (lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4);

/** The code point of the UTF-8 sequence at `p` (the dictionary's text is valid UTF-8). */
export function codeAt(bytes: Uint8Array, p: number): number {
  const lead = bytes[p]!;
  if (lead < 0x80) return lead;
  if (lead < 0xe0) return ((lead & 0x1f) << 6) | (bytes[p + 1]! & 0x3f);
  if (lead < 0xf0) return ((lead & 0x0f) << 12) | ((bytes[p + 1]! & 0x3f) << 6) | (bytes[p + 2]! & 0x3f);
  return (
    ((lead & 0x07) << 18) | ((bytes[p + 1]! & 0x3f) << 12) | ((bytes[p + 2]! & 0x3f) << 6) | (bytes[p + 3]! & 0x3f)
  );
}

/** Slots of the table of a query word's characters: twice its most characters, 32, for short probes. */
const SLOTS = 64;

/** A query word as measured against index words: its code points, its reach, the index words' lengths it may meet. */
export class NearWord {
  readonly codes: Int32Array;
  readonly maxEdits: number;
  /** Its letters as a set (letterBit). */
  readonly letters: number;
  /** The lengths, in code points, an index word within reach may have. */
  readonly minLength: number;
  readonly maxLength: number;
  /** For each character (by open addressing on its code point), the positions where the word has it. */
  private readonly keys = new Int32Array(SLOTS).fill(-1);
  private readonly masks = new Int32Array(SLOTS);
  /** The same for ASCII characters, by code: most names' letters, found in one read. */
  private readonly ascii = new Int32Array(128);
  /** The banded table's three columns (a word longer than 32). */
  private readonly columns: [Uint8Array, Uint8Array, Uint8Array];

  /** `text`: a folded query word; `asStart`: it may be the start of an index word (the query's last word). */
  constructor(
    readonly text: string,
    readonly asStart: boolean,
  ) {
    this.codes = Int32Array.from(text, (char) => char.codePointAt(0)!);
    const m = this.codes.length;
    this.maxEdits = maxEditsOf(m);
    this.letters = this.codes.reduce((set, code) => set | letterBit(code), 0);
    this.minLength = m - this.maxEdits;
    this.maxLength = asStart ? Number.POSITIVE_INFINITY : m + this.maxEdits;
    if (m <= 32) this.codes.forEach((code, i) => this.addPosition(code, i));
    this.columns = [new Uint8Array(m + 1), new Uint8Array(m + 1), new Uint8Array(m + 1)];
  }

  private addPosition(code: number, position: number): void {
    if (code < 128) this.ascii[code]! |= 1 << position;
    let slot = code & (SLOTS - 1);
    while (this.keys[slot] !== -1 && this.keys[slot] !== code) slot = (slot + 1) & (SLOTS - 1);
    this.keys[slot] = code;
    this.masks[slot]! |= 1 << position;
  }

  /** The positions where the word has `code`, as bits. */
  private positionsOf(code: number): number {
    for (let slot = code & (SLOTS - 1); ; slot = (slot + 1) & (SLOTS - 1)) {
      const key = this.keys[slot]!;
      if (key === code) return this.masks[slot]!;
      if (key === -1) return 0;
    }
  }

  /**
   * Edits from this word to the UTF-8 word bytes[from, to) (to its closest start when `asStart`), or
   * `maxEdits + 1` when more.
   */
  editsTo(bytes: Uint8Array, from: number, to: number): number {
    if (this.codes.length > 32) return this.bandedEditsTo(bytes, from, to);
    return this.keepsEnough(bytes, from, to) ? this.bitEditsTo(bytes, from, to) : this.maxEdits + 1;
  }

  /**
   * Whether the word bytes[from, to) keeps enough of this word's characters to be within reach: a
   * word (or start) k edits away keeps all but k of them, each at most k places from where it was
   * (an insert or a delete moves those after it one place, a swap two, each one edit; a changed or
   * deleted character is one edit each). A few operations a character, against the edit table's
   * twenty: of the words the letter sets let through, most fail here.
   */
  private keepsEnough(bytes: Uint8Array, from: number, to: number): boolean {
    const m = this.codes.length;
    const k = this.maxEdits;
    const ascii = this.ascii;
    // The query's positions k places either side of the word's j-th character.
    const window = (1 << (2 * k + 1)) - 1;
    let kept = 0;
    // A character past m + k is more than k places from every one of the query's.
    for (let p = from, j = 0; p < to && j < m + k; j++) {
      const lead = bytes[p]!;
      const equal = lead < 0x80 ? ascii[lead]! : this.positionsOf(codeAt(bytes, p));
      p += lead < 0x80 ? 1 : byteLength(lead);
      kept |= equal & (j >= k ? window << (j - k) : window >>> (k - j));
    }
    let lost = ~kept & (m === 32 ? -1 : (1 << m) - 1);
    for (let e = 0; e < k; e++) lost &= lost - 1;
    return lost === 0;
  }

  /**
   * One column of the table per character of the index word, as bit vectors over the query's
   * positions: vertical and horizontal differences (+1, -1) and the cells equal to their diagonal
   * (d0); `score` is the last row's cell, the edits to the index word's characters so far.
   */
  private bitEditsTo(bytes: Uint8Array, from: number, to: number): number {
    const m = this.codes.length;
    const k = this.maxEdits;
    const asStart = this.asStart;
    const ascii = this.ascii;
    const top = 1 << (m - 1);
    // Plain int32 values throughout: the vectors are m bits, the bits above them never flow down.
    let vp = m === 32 ? -1 : ((1 << m) - 1) | 0;
    let vn = 0;
    let d0 = 0;
    let previous = 0;
    let score = m;
    let best = m;
    // Past m + k characters the last row only grows: a start that long is out of reach.
    const end = asStart ? m + k : to - from;
    for (let p = from, j = 1; p < to && j <= end; j++) {
      const lead = bytes[p]!;
      // Most names' letters are ASCII: one read, one byte on.
      const equal = lead < 0x80 ? ascii[lead]! : this.positionsOf(codeAt(bytes, p));
      p += lead < 0x80 ? 1 : byteLength(lead);
      // Two neighbours swapped: the cell two back on the diagonal, where this character and the last cross.
      const swapped = ((~d0 & equal) << 1) & previous;
      d0 = ((((equal & vp) + vp) | 0) ^ vp) | equal | vn | swapped;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      if (hp & top) score++;
      else if (hn & top) score--;
      hp = (hp << 1) | 1;
      hn <<= 1;
      vp = hn | ~(d0 | hp);
      vn = d0 & hp;
      previous = equal;
      if (score < best) best = score;
    }
    const edits = asStart ? best : score;
    return edits <= k ? edits : k + 1;
  }

  /**
   * The table itself, a column per character of the index word and a row per query character, only
   * its cells within `maxEdits` of the diagonal computed, each capped at `maxEdits + 1`.
   */
  private bandedEditsTo(bytes: Uint8Array, from: number, to: number): number {
    const q = this.codes;
    const [m, k, asStart] = [q.length, this.maxEdits, this.asStart];
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
      if (lo > m) return asStart ? best : over;
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
      if (asStart && hi === m && current[m]! < best) best = current[m]!;
      // Later columns are at least min(this column's least, the one before's + 1): past reach, stop.
      if ((columnMin > k && previousMin >= k) || (asStart && best === 0)) return asStart ? best : over;
      const spare = before;
      before = previous;
      previous = current;
      current = spare;
      previousMin = columnMin;
      previousCode = code;
    }
    if (asStart) return best;
    return m - j <= k && j - m <= k ? previous[m]! : over;
  }
}
