/** The "ingest" of the reliability tests: replaces every failure row and bumps the version, atomically. */
import type { DbHandle } from '../../src/db/connect.js';
import { bumpDatasetVersion } from '../../src/db/dataset.js';

/** Rewrites the failures table with every name suffixed by `(tag)`; returns the new version. */
export async function bulkReplace(writer: DbHandle, tag: string): Promise<number> {
  return writer.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('failures').selectAll().orderBy('id').execute();
    await trx.deleteFrom('failures').execute();
    const renamed = rows.map(({ id: _id, ...row }) => ({
      ...row,
      name: `${row.name.replace(/ \(load \d+\)$/, '')} (${tag})`,
    }));
    for (let i = 0; i < renamed.length; i += 500) {
      await trx
        .insertInto('failures')
        .values(renamed.slice(i, i + 500))
        .execute();
    }
    return bumpDatasetVersion(trx);
  });
}
