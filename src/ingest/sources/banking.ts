/** The banking service's ingest sources, in the order `regdata ingest banking` runs them. */
import type { IngestSource } from '../core/types.js';
import { fdicFailures } from './fdic/failures.js';
import { fdicFinancials } from './fdic/financials.js';
import { fdicInstitutions } from './fdic/institutions.js';
import { ffiecCall } from './ffiec/index.js';
import { fred } from './fred.js';

export const BANKING_INGEST_SOURCES: readonly IngestSource[] = [
  fdicFinancials,
  fdicInstitutions,
  fdicFailures,
  fred,
  ffiecCall,
];
