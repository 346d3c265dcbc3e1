/**
 * What a day changes for the daily crowding (crowding.ts): equity positions that start (+1) or stop
 * (−1) counting, by CUSIP number. Most of a quarter's positions pass through here (millions, on a
 * few busy days), so they are kept in typed-array chunks, each twice the last up to a cap: nothing
 * is copied as they grow (doubling one array copied ~0.2 s worth of them into fresh memory). Not
 * columns.ts's fixed 64 Ki-entry chunks: most days hold a few entries, and a quarter has ~90 days.
 */
const FIRST_CHUNK = 256;
const LARGEST_CHUNK = 1 << 16;

/** One chunk of changes; its first `count` entries are set. */
export interface DayChangeChunk {
  readonly numbers: Int32Array;
  readonly signs: Int8Array;
  readonly values: Float64Array;
  readonly shares: Float64Array;
  count: number;
}

function chunkOf(size: number): DayChangeChunk {
  const numbers = new Int32Array(size);
  const signs = new Int8Array(size);
  return { numbers, signs, values: new Float64Array(size), shares: new Float64Array(size), count: 0 };
}

export class DayChanges {
  /** The changes in the order added, chunk by chunk. */
  readonly chunks: DayChangeChunk[] = [chunkOf(FIRST_CHUNK)];
  private last = this.chunks[0] as DayChangeChunk;

  add(n: number, sign: number, value: number, shares: number): void {
    let chunk = this.last;
    if (chunk.count === chunk.numbers.length) {
      chunk = chunkOf(Math.min(2 * chunk.numbers.length, LARGEST_CHUNK));
      this.chunks.push(chunk);
      this.last = chunk;
    }
    const at = chunk.count++;
    chunk.numbers[at] = n;
    chunk.signs[at] = sign;
    chunk.values[at] = value;
    chunk.shares[at] = shares;
  }
}
