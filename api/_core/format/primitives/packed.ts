/**
 * Arrays of unsigned integers stored in as few bytes each as the largest value needs (1 to 4):
 * record numbers of 2 million showtimes take 3 bytes, not 4. Section layout: u8 width, three
 * zero bytes, then the values little-endian.
 */
export const PACKED_HEADER = 4;

export function widthFor(max: number): number {
  if (max < 0x100) return 1;
  if (max < 0x10000) return 2;
  if (max < 0x1000000) return 3;
  return 4;
}

export function encodePacked(values: ArrayLike<number>, max = maxOf(values)): Uint8Array {
  const width = widthFor(max);
  const out = new Uint8Array(PACKED_HEADER + values.length * width);
  out[0] = width;
  let at = PACKED_HEADER;
  for (let i = 0; i < values.length; i++) {
    let v = values[i]!;
    for (let b = 0; b < width; b++) {
      out[at++] = v & 0xff;
      v >>>= 8;
    }
  }
  return out;
}

function maxOf(values: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return max;
}

/** Reads value i of a packed array from its bytes (`bytes` starts at value `first`). */
export function readPacked(bytes: Uint8Array, width: number, i: number): number {
  const at = i * width;
  switch (width) {
    case 1:
      return bytes[at]!;
    case 2:
      return bytes[at]! | (bytes[at + 1]! << 8);
    case 3:
      return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
    default:
      return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
  }
}
