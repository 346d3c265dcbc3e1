/**
 * Call-report revisions (SPEC §8): before a financials load swaps its rows in, every stored value
 * it changes or removes is kept in `financial_revisions` with the new one, the source, the time
 * and the dataset version the load commits. A value first filled in (stored null) is not a
 * revision: catalogue fields added later would otherwise "revise" every row. A table still holding
 * the demo dataset has nothing to revise. Compared one report date at a time, so memory stays flat.
 */
import { type Insertable, sql, type Transaction } from 'kysely';
import { FIELD_NAMES } from '../../banking/fields/catalogue.js';
import { datasetVersion } from '../../db/dataset.js';
import type { Database, FinancialRevisionsTable } from '../../db/tables.js';

/** Equal up to floating-point noise (values are stored as doubles). */
const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** `replaces`: the `source` values of the served rows this load replaces for the same bank and date. */
export async function recordFinancialRevisions(
  trx: Transaction<Database>,
  staging: string,
  source: string,
  replaces: readonly string[],
): Promise<number> {
  const demo = await trx
    .selectFrom('sources')
    .select('source')
    .where('source', '=', 'fdic-financials')
    .where('is_demo', '=', 1)
    .executeTakeFirst();
  if (demo) return 0;
  const version = (await datasetVersion(trx)) + 1;
  const loadedAt = new Date().toISOString();
  const { rows: dates } = await sql<{
    report_date: string;
  }>`select distinct report_date from ${sql.table(staging)} order by 1`.execute(trx);
  const columns = (alias: string) => sql.join(FIELD_NAMES.map((f) => sql`${sql.ref(`${alias}.${f}`)}`));
  let recorded = 0;
  for (const { report_date } of dates) {
    const { rows } = await sql<Record<string, unknown>>`
      select f.cert, ${columns('f')}, ${sql.join(FIELD_NAMES.map((f) => sql`${sql.ref(`s.${f}`)} as ${sql.ref(`new_${f}`)}`))}
      from ${sql.table(staging)} s join financials f on f.cert = s.cert and f.report_date = s.report_date
      where s.report_date = ${report_date} and f.source in (${sql.join(replaces)})`.execute(trx);
    const revisions: Insertable<FinancialRevisionsTable>[] = [];
    for (const row of rows) {
      for (const field of FIELD_NAMES) {
        const old = row[field] as number | null;
        const now = row[`new_${field}`] as number | null;
        if (old === null || (now !== null && same(Number(old), Number(now)))) continue;
        revisions.push({
          cert: Number(row.cert),
          report_date,
          field,
          old: Number(old),
          new: now === null ? null : Number(now),
          source,
          loaded_at: loadedAt,
          dataset_version: version,
        });
      }
    }
    for (let i = 0; i < revisions.length; i += 500)
      await trx
        .insertInto('financial_revisions')
        .values(revisions.slice(i, i + 500))
        .execute();
    recorded += revisions.length;
  }
  return recorded;
}
