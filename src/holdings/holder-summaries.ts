/**
 * One quarter's holder changes per security (how many managers are new, added, reduced, unchanged or
 * sold out, and the split factor), in memory as a read index (db/read-indexes.ts): the head of a
 * holders page (`/api/securities/{cusip}/holders`) without reading `security_changes` and
 * `security_splits`, two lookups that cost ~40 µs a request with the CPU caches cold. ~30 bytes a
 * security: ~1 MB a quarter at full scale.
 */
import type { Kysely } from 'kysely';
import { readIndex, type Sized } from '../db/read-indexes.js';
import type { Database } from '../db/tables.js';

export interface HolderSummary {
  split_factor: number | null;
  summary: { new: number; added: number; reduced: number; unchanged: number; sold_out: number };
}

const COUNTS = 5;

export class HolderSummaries implements Sized {
  private constructor(
    private readonly slotOf: ReadonlyMap<string, number>,
    /** Per slot: new, added, reduced, unchanged, sold out. */
    private readonly counts: Int32Array,
    /** Per slot; NaN: no split. */
    private readonly splits: Float64Array,
  ) {}

  static async of(db: Kysely<Database>, quarter: string): Promise<HolderSummaries> {
    const [changes, splits] = await Promise.all([
      db
        .selectFrom('security_changes')
        .select(['cusip', 'new_count', 'added_count', 'reduced_count', 'unchanged_count', 'sold_out_count'])
        .where('quarter', '=', quarter)
        .execute(),
      db.selectFrom('security_splits').select(['cusip', 'factor']).where('quarter', '=', quarter).execute(),
    ]);
    const slotOf = new Map<string, number>();
    const counts = new Int32Array(changes.length * COUNTS);
    changes.forEach((row, slot) => {
      slotOf.set(row.cusip, slot);
      // biome-ignore format: the five counts
      counts.set([row.new_count, row.added_count, row.reduced_count, row.unchanged_count, row.sold_out_count].map(Number), slot * COUNTS);
    });
    const factors = new Float64Array(changes.length).fill(Number.NaN);
    for (const { cusip, factor } of splits) {
      const slot = slotOf.get(cusip);
      if (slot !== undefined) factors[slot] = Number(factor);
    }
    return new HolderSummaries(slotOf, counts, factors);
  }

  get bytes(): number {
    return this.slotOf.size * 100 + this.counts.byteLength + this.splits.byteLength;
  }

  /** The security's summary; undefined when nobody held or sold it that quarter. */
  get(cusip: string): HolderSummary | undefined {
    const slot = this.slotOf.get(cusip);
    if (slot === undefined) return undefined;
    const at = slot * COUNTS;
    const c = this.counts;
    const split = this.splits[slot] as number;
    return {
      split_factor: Number.isNaN(split) ? null : split,
      // biome-ignore format: the five counts
      summary: { new: c[at] as number, added: c[at + 1] as number, reduced: c[at + 2] as number, unchanged: c[at + 3] as number, sold_out: c[at + 4] as number },
    };
  }
}

/** The quarter's summaries, or null when read indexes are off. */
export function holderSummaries(
  db: Kysely<Database>,
  quarter: string,
  maxBytes: number,
): Promise<HolderSummaries | null> {
  return readIndex(db, `holder-summaries|${quarter}`, maxBytes, () => HolderSummaries.of(db, quarter));
}
