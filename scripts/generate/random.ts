/** A seeded source of uniform numbers in [0, 1); the same seed always yields the same sequence. */
export type Random = () => number;

/** Creates a mulberry32 generator: tiny, fast, and good enough for synthetic data (not for anything secret). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Creates an independent stream for one part of the data (one cinema, the film list...), so that
 * what a part looks like depends only on (seed, stream) and not on how much earlier parts drew.
 */
export function forkRandom(seed: number, stream: number): Random {
  // murmur3's finaliser spreads neighbouring stream numbers over unrelated seeds.
  let z = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return createRandom((z ^ (z >>> 16)) >>> 0);
}

/** Draws an integer in [min, max], both inclusive. */
export function drawInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** Returns true with probability p. */
export function flip(random: Random, p: number): boolean {
  return random() < p;
}

/** Picks one item uniformly. */
export function pickOne<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Turns weights into a running total that pickWeighted can binary-search. */
export function accumulateWeights(weights: readonly number[]): Float64Array {
  const totals = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((weight, i) => (totals[i] = sum += weight));
  return totals;
}

/** Picks an index with probability proportional to its weight. */
export function pickWeighted(random: Random, totals: Float64Array): number {
  const target = random() * totals[totals.length - 1]!;
  let low = 0;
  let high = totals.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (totals[mid]! > target) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * Splits total into integer shares proportional to weights that add up to exactly total,
 * by rounding the running sum rather than each share (no drift, no remainder pass).
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const shares: number[] = [];
  let running = 0;
  let given = 0;
  for (const weight of weights) {
    running += weight;
    const upTo = sum === 0 ? 0 : Math.round((total * running) / sum);
    shares.push(upTo - given);
    given = upTo;
  }
  return shares;
}
