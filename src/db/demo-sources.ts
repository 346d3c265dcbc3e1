/**
 * The sources the built-in demo dataset records itself as (provenance rows with `is_demo = 1`), and
 * the served tables each one fills. This is the one rule for "real data replaces demo data": a real
 * load into any of these tables, while its demo label stands, replaces the whole table and retires
 * the label, so real and synthetic rows never mix (src/ingest/core/run.ts).
 */
import type { TableName } from './tables.js';

export const DEMO_SOURCE_TABLES = {
  'fdic-institutions': ['institutions'],
  'fdic-financials': ['financials'],
  'fdic-failures': ['failures'],
  fred: ['macro_series', 'macro_observations'],
  'sec-13f': ['filings_13f', 'info_tables_13f'],
  'sec-advisers': ['advisers'],
  'sec-securities': ['securities'],
  'sec-registrants': ['sec_registrants'],
} as const satisfies Record<string, readonly TableName[]>;

export type DemoSource = keyof typeof DEMO_SOURCE_TABLES;

/** The demo sources among `labelled` whose tables include `table`. */
export function demoOwnersOf(table: TableName, labelled: readonly string[]): DemoSource[] {
  return (Object.keys(DEMO_SOURCE_TABLES) as DemoSource[]).filter(
    (source) =>
      labelled.includes(source) && (DEMO_SOURCE_TABLES[source] as readonly string[]).includes(table),
  );
}
