/** Schema of GET /api/freshness (SPEC §8). */
import { Type } from 'typebox';

const nullableDate = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const FreshnessSchema = Type.Object({
  as_of: Type.String({
    description:
      'The day the answer was computed (YYYY-MM-DD, UTC): `complete` and `next_expected` depend on it',
  }),
  sources: Type.Array(
    Type.Object({
      source: Type.String({ description: 'Ingest source, as `regdata ingest` names it' }),
      latest_period: nullableDate(
        'Latest period served: report date (call reports), quarter `YYYY-QN` (13F), latest observation (FRED), latest closing date (failures); null for snapshot sources or when nothing is loaded',
      ),
      loaded_at: nullableDate('When the data served was loaded (ISO 8601); null when never loaded'),
      upstream_updated_at: nullableDate(
        'The upstream’s own last-updated time where it gives one (FRED series metadata); null otherwise',
      ),
      next_expected: nullableDate(
        'Next expected release, YYYY-MM-DD: call reports 35 days after the next quarter end (today while the latest report date is incomplete); 13F the 45-day deadline (of the latest quarter while its season is open, else of the next); FRED the earliest series’ last update plus one period of its frequency; advisers the first of the month after the load; null when the upstream has no rhythm',
      ),
      completeness: Type.Union(
        [
          Type.Object({
            period: Type.String({ description: 'The period measured (the latest)' }),
            reported: Type.Integer({
              description:
                'Call reports: institutions with a record at the report date; 13F: managers with a 13F-HR for the quarter',
            }),
            expected: Type.Integer({
              description:
                'Call reports: institutions with a record at the previous report date that are still active; 13F: managers with a 13F-HR for the previous quarter',
            }),
            share: Type.Number({
              description: 'reported ÷ expected (4 decimals; 1 when nothing is expected)',
            }),
          }),
          Type.Null(),
        ],
        { description: 'Call reports and 13F only' },
      ),
      complete: Type.Union([Type.Boolean(), Type.Null()], {
        description:
          'share ≥ 0.98, or the period ended more than 100 days (call reports) / 75 days (13F) ago; null without completeness',
      }),
    }),
  ),
});
