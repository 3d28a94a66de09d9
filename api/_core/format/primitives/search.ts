/** Binary search over a monotone predicate: every sorted table of the format is searched with it. */

/** First index in [0, n) for which `isPast` holds, given it is monotone. */
export function lowerBound(n: number, isPast: (i: number) => boolean): number {
  let low = 0;
  let high = n;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (isPast(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}
