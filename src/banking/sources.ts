import type { SourceDescription } from '../operations/meta.js';

/** The banking service's ingest sources, as `regdata ingest <source>` names them. */
export const BANKING_SOURCES: readonly SourceDescription[] = [
  {
    source: 'fdic-institutions',
    description: 'FDIC BankFind institutions (active and inactive)',
    ingest: 'regdata ingest fdic-institutions',
  },
  {
    source: 'fdic-financials',
    description: 'FDIC BankFind quarterly financials (call reports)',
    ingest: 'regdata ingest fdic-financials',
  },
  {
    source: 'ffiec-call',
    description: 'FFIEC CDR bulk call reports (fills quarters FDIC does not serve yet)',
    ingest: 'regdata ingest ffiec-call',
  },
  {
    source: 'fdic-failures',
    description: 'FDIC BankFind bank failures since 1934',
    ingest: 'regdata ingest fdic-failures',
  },
  { source: 'fred', description: 'FRED macro time series (12 series)', ingest: 'regdata ingest fred' },
];
