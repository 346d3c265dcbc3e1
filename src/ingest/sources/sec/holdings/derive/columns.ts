/**
 * Columns of numbers gathered a quarter at a time (millions of entries) without an object per entry
 * and without a doubling copy: typed-array chunks while they come, one array per column once
 * complete (its chunks let go as copied), then grouped by a counting sort.
 */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const LAST = CHUNK - 1;

type Typed = Uint32Array | Uint8Array | Float64Array;

export class ChunkedColumn<T extends Typed> {
  private readonly chunks: T[] = [];

  constructor(private readonly create: (n: number) => T) {}

  /** Sets entry `i`; entries are set in order, each once (`i` is the column's length). */
  set(i: number, value: number): void {
    const at = i & LAST;
    if (at === 0) this.chunks.push(this.create(CHUNK));
    (this.chunks[i >>> CHUNK_BITS] as T)[at] = value;
  }

  /** The column as one array of `count` entries; the chunks are let go as they are copied. */
  take(count: number): T {
    const out = this.create(count);
    for (let c = 0; this.chunks.length > 0; c++) {
      const chunk = this.chunks.shift() as T;
      const start = c * CHUNK;
      out.set(chunk.subarray(0, Math.min(CHUNK, count - start)), start);
    }
    return out;
  }
}

export const uint32Column = () => new ChunkedColumn((n) => new Uint32Array(n));
export const uint8Column = () => new ChunkedColumn((n) => new Uint8Array(n));
export const float64Column = () => new ChunkedColumn((n) => new Float64Array(n));

/**
 * Entries grouped by `group[e]` (0 … groups − 1), by a counting sort: group g's entries are
 * `[starts[g], starts[g + 1])` of any column `gather` copies into grouped order (entries of a group
 * in entry order). Each column is copied whole, through one cursor per group, so that a group's
 * entries are then read side by side: read in place through a list of entry numbers, a quarter's
 * millions of entries (gathered manager by manager, grouped by security) miss the cache at almost
 * every read (measured: packing 3.5 million changes' holders over 24,000 securities 1.7–2.4 →
 * 1.05–1.3 s).
 */
export function groupsOf(group: Uint32Array, groups: number) {
  const count = group.length;
  const starts = new Uint32Array(groups + 1);
  for (let e = 0; e < count; e++) {
    const after = (group[e] as number) + 1;
    starts[after] = (starts[after] as number) + 1;
  }
  for (let g = 0; g < groups; g++) starts[g + 1] = (starts[g + 1] as number) + (starts[g] as number);
  const gather = <T extends Typed>(column: T): T => {
    const grouped = new (column.constructor as new (length: number) => T)(count);
    const next = starts.slice(0, groups);
    for (let e = 0; e < count; e++) {
      const g = group[e] as number;
      const at = next[g] as number;
      grouped[at] = column[e] as number;
      next[g] = at + 1;
    }
    return grouped;
  };
  return { starts, gather };
}

/** Managers numbered as they come, which must be ascending CIK order: numbers compare as CIKs do. */
export class ManagerNumbers {
  readonly ciks: string[] = [];

  constructor(private readonly cikBytes: number) {}

  /** The number of the manager started last. */
  get current(): number {
    return this.ciks.length - 1;
  }

  start(cik: string): void {
    const last = this.ciks.at(-1);
    if (cik.length !== this.cikBytes) throw new Error(`CIK ${cik} is not ${this.cikBytes} characters`);
    if (last !== undefined && !(last < cik)) throw new Error(`managers out of CIK order: ${last}, ${cik}`);
    this.ciks.push(cik);
  }
}
