/**
 * The ingest guard: a load that looks like an upstream format change or a truncated download is
 * refused, and the served data stays exactly as it was. Two rules, each with a setting:
 * - rejected rows: more than INGEST_MAX_REJECTED_PERCENT of the rows read were rejected;
 * - shrink: the load would remove more than INGEST_MAX_SHRINK_PERCENT of the served rows of a
 *   scope it replaces (`--allow-shrink` accepts a real shrink). Replacing the demo dataset is exempt.
 */
import { LoadRefused } from './errors.js';

export function checkRejectedRows(rejected: number, read: number, limitPercent: number): void {
  const of = Math.max(read, rejected);
  if (of === 0) return;
  const percent = (100 * rejected) / of;
  if (percent <= limitPercent) return;
  throw new LoadRefused(
    { rule: 'rejected-rows', count: rejected, of, percent, limit_percent: limitPercent },
    `refused by the rejected-rows rule: ${rejected} of ${of} rows read were rejected (${percent.toFixed(1)} %, limit ${limitPercent} % set by INGEST_MAX_REJECTED_PERCENT); the upstream format may have changed`,
  );
}

/** `limitPercent` null: the shrink rule is off for this load (`--allow-shrink`, or demo rows). */
export function checkShrink(
  table: string,
  removed: number,
  served: number,
  limitPercent: number | null,
): void {
  if (limitPercent === null || served === 0) return;
  const percent = (100 * removed) / served;
  if (percent <= limitPercent) return;
  throw new LoadRefused(
    { rule: 'shrink', table, count: removed, of: served, percent, limit_percent: limitPercent },
    `refused by the shrink rule: the load would remove ${removed} of the ${served} served ${table} rows it replaces (${percent.toFixed(1)} %, limit ${limitPercent} % set by INGEST_MAX_SHRINK_PERCENT); if the upstream really shrank, run again with --allow-shrink`,
  );
}
