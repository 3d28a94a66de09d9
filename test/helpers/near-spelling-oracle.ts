/**
 * The naive oracle of near spellings (decision: name search), written from the decision and
 * sharing no code with the core: the whole edit table of every pair (restricted Damerau-Levenshtein,
 * code point by code point), every start of a word tried one by one, no filter.
 */

/** Edits from `a` to `b`: insert, delete, substitute, or swap two neighbours, each 1 (optimal string alignment). */
export function naiveEdits(a: string, b: string): number {
  const [x, y] = [[...a], [...b]];
  const d = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++)
    for (let j = 1; j <= y.length; j++) {
      d[i]![j] = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
        i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1] ? d[i - 2]![j - 2]! + 1 : Infinity,
      );
    }
  return d[x.length]![y.length]!;
}

/** The fewest edits from `a` to any start of `b` (the empty one and `b` itself included). */
export function naiveStartEdits(a: string, b: string): number {
  const y = [...b];
  return Math.min(...y.map((_, j) => naiveEdits(a, y.slice(0, j + 1).join(""))), naiveEdits(a, ""));
}

/** Edits a query word may have: none up to 2 characters, 1 up to 5, 2 beyond. */
export function naiveMaxEdits(word: string): number {
  const length = [...word].length;
  return length <= 2 ? 0 : length <= 5 ? 1 : 2;
}

/**
 * The edits that make every distinct query word find one of a record's words (`finding`, folded),
 * or undefined: a word that starts one costs 0; else the fewest edits to a whole word (to a start of
 * one, for the query's last word), within its reach.
 */
export function naiveNearEdits(finding: readonly string[], queryWords: readonly string[]): number | undefined {
  const last = queryWords.at(-1);
  let total = 0;
  for (const q of new Set(queryWords)) {
    let best = Infinity;
    for (const w of finding) {
      const d = w.startsWith(q) ? 0 : q === last ? naiveStartEdits(q, w) : naiveEdits(q, w);
      if (d <= naiveMaxEdits(q)) best = Math.min(best, d);
    }
    if (best === Infinity) return undefined;
    total += best;
  }
  return total;
}
