/** Widget queries: plain Kysely, portable between SQLite and PostgreSQL. */
import type { Kysely } from 'kysely';
import { prepared } from '../db/prepared.js';
import type { Database } from '../db/tables.js';
import { METRIC_KEYS, type MetricKey, WIDGET_METRIC_KEYS, type WidgetMetric } from './metrics.js';
import { MAX_QUARTERS, type SeriesPoint } from './series.js';

const institutionName = prepared((db, cert: number) =>
  db.selectFrom('institutions').select(['cert', 'name']).where('cert', '=', cert),
);

export async function findInstitution(db: Kysely<Database>, cert: number) {
  return (await institutionName(db, cert))[0];
}

/** The history query of one metric (its column is part of the SQL text), compiled on first use. */
function historyQuery(metric: WidgetMetric) {
  // `cert` twice: the rows and the subquery's newest reported date each bind it once.
  return prepared((db, cert: number, sameCert: number) =>
    db
      .selectFrom('financials')
      .select(['report_date', metric])
      .where('cert', '=', cert)
      .where('report_date', '<=', (eb) =>
        eb
          .selectFrom('financials')
          .select((inner) => inner.fn.max('report_date').as('latest'))
          .where('cert', '=', sameCert)
          .where(metric, 'is not', null),
      )
      .orderBy('report_date', 'desc')
      .limit(MAX_QUARTERS),
  );
}

/** One per widget metric (the catalogue's percent fields), made up front: a metric is a column name. */
const historyQueries = new Map(WIDGET_METRIC_KEYS.map((metric) => [metric, historyQuery(metric)]));

/**
 * The newest `MAX_QUARTERS` report rows of one institution up to its newest reported value of
 * `metric`, ascending. Rows with a null value are kept (gaps); empty when nothing was reported.
 */
export async function metricHistory(
  db: Kysely<Database>,
  cert: number,
  metric: WidgetMetric,
): Promise<SeriesPoint[]> {
  const query = historyQueries.get(metric);
  if (!query) throw new Error(`not a widget metric: ${metric}`);
  const rows = await query(db, cert, cert);
  return rows.reverse().map(toSeriesPoint(metric));
}

function toSeriesPoint(metric: WidgetMetric) {
  return (row: Record<string, unknown>): SeriesPoint => ({
    date: row.report_date as string,
    value: (row[metric] as number | null | undefined) ?? null,
  });
}

/** Which of the eight metrics have at least one reported value for this institution. */
export async function metricsWithData(db: Kysely<Database>, cert: number): Promise<Set<MetricKey>> {
  const row = await db
    .selectFrom('financials')
    .select((eb) => METRIC_KEYS.map((metric) => eb.fn.count(metric).as(metric)))
    .where('cert', '=', cert)
    .executeTakeFirst();
  return new Set(METRIC_KEYS.filter((metric) => Number(row?.[metric] ?? 0) > 0));
}
