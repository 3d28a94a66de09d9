/** Length in Unicode code points, as JSON Schema counts it (not UTF-16 units). */
export function codePointLength(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Plain string comparison (UTF-16 code units), the order the API promises for ids. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares sort keys element by element: [instantKey, id] for showtimes, [id] otherwise. */
export function compareSortKeys(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const order = compareStrings(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/**
 * `value` cut to at most `max` code points, ending in "…" when cut. Cutting by UTF-16 unit could
 * leave half a surrogate pair, which strict JSON decoders refuse (decision: echoed values).
 */
export function clipText(value: string, max: number): string {
  if (value.length <= max || codePointLength(value) <= max) return value;
  let units = 0;
  for (let points = 0; points < max - 1; points++) {
    const unit = value.charCodeAt(units);
    const pair = unit >= 0xd800 && unit <= 0xdbff && (value.charCodeAt(units + 1) & 0xfc00) === 0xdc00;
    units += pair ? 2 : 1;
  }
  return `${value.slice(0, units)}…`;
}
