/**
 * The hash of a showtime id for the id index: FNV-1a over the string's UTF-16 code units, then
 * MurmurHash3's finalizer so that low bits (the bucket) and high bits (the fingerprint) are both
 * well mixed. Build and server hash the same string the same way, whatever its encoding.
 */
export function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Ids a bucket holds on average: a lookup scans its fingerprints, a page's worth of bytes. */
export const IDS_PER_BUCKET = 64;

/** Bucket count for n ids: a power of two, so the bucket is the hash's low bits. */
export function bucketCountFor(n: number): number {
  let buckets = 1;
  while (buckets * IDS_PER_BUCKET < n) buckets *= 2;
  return buckets;
}

export const fingerprintOf = (hash: number): number => hash >>> 16;
