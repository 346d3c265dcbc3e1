/**
 * Typed arrays grown by doubling, for columns filled one entry at a time (millions of them), and
 * index lists sorted by a column of values.
 */
type Growable = Int8Array | Uint8Array | Int32Array | Uint32Array | Float64Array;

/** A copy of `array` in a new one of twice its length (the rest zero). */
export function doubled<T extends Growable>(array: T): T {
  const copy = new (array.constructor as new (length: number) => T)(2 * array.length);
  copy.set(array);
  return copy;
}

/** The indexes start … end − 1, as a list to sort (sortByValueDescending). */
export function indexRange(start: number, end: number): Uint32Array {
  const indexes = new Uint32Array(end - start);
  for (let i = 0; i < indexes.length; i++) indexes[i] = start + i;
  return indexes;
}

/** Entries sorted by insertion before merging: short runs, where insertion beats merging. */
const RUN = 16;
/** The merge's other buffer, grown as needed: one sort at a time per thread. */
let scratch = new Uint32Array(1024);

/**
 * Sorts `order` (indexes into `values`) by value, greatest first; entries of equal value keep their
 * order (a stable merge sort). That is `order.sort((a, b) => values[b] - values[a])` with ties kept,
 * about twice as fast: no function call per comparison (measured: 3.5 million positions in lists of
 * ~400, 650 → 390 ms). Callers make the entries' order the tie-break they need. Values must not be
 * NaN (no order holds then; the derivation's are sums of finite numbers).
 */
export function sortByValueDescending(order: Uint32Array, values: Float64Array): Uint32Array {
  const n = order.length;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(n, lo + RUN);
    for (let i = lo + 1; i < hi; i++) {
      const entry = order[i] as number;
      const value = values[entry] as number;
      let j = i - 1;
      for (; j >= lo && (values[order[j] as number] as number) < value; j--)
        order[j + 1] = order[j] as number;
      order[j + 1] = entry;
    }
  }
  if (n <= RUN) return order;
  if (scratch.length < n) scratch = new Uint32Array(2 * n);
  let from: Uint32Array = order;
  let to: Uint32Array = scratch;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const middle = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let left = lo;
      let right = middle;
      let out = lo;
      while (left < middle && right < hi) {
        const a = from[left] as number;
        const b = from[right] as number;
        // Only a strictly greater value on the right goes first: ties keep their order.
        if ((values[b] as number) > (values[a] as number)) {
          to[out++] = b;
          right++;
        } else {
          to[out++] = a;
          left++;
        }
      }
      while (left < middle) to[out++] = from[left++] as number;
      while (right < hi) to[out++] = from[right++] as number;
    }
    const merged = to;
    to = from;
    from = merged;
  }
  if (from !== order) order.set(from.subarray(0, n));
  return order;
}
