/** Typed arrays grown by doubling, for columns filled one entry at a time (millions of them). */
type Growable = Int8Array | Uint8Array | Int32Array | Uint32Array | Float64Array;

/** A copy of `array` in a new one of twice its length (the rest zero). */
export function doubled<T extends Growable>(array: T): T {
  const copy = new (array.constructor as new (length: number) => T)(2 * array.length);
  copy.set(array);
  return copy;
}
