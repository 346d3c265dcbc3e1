/** The SEC ingest sources of the holdings service, as `regdata ingest <name>` knows them. */
import type { IngestSource } from '../../core/types.js';
import { sec13fSource } from './source-13f.js';
import { secAdvisersSource } from './source-advisers.js';
import { sec13fFilingSource } from './source-filing.js';
import { secRegistrantsSource } from './source-registrants.js';
import { secSecuritiesSource } from './source-securities.js';

export const SEC_INGEST_SOURCES: readonly IngestSource[] = [
  sec13fSource,
  sec13fFilingSource,
  secAdvisersSource,
  secSecuritiesSource,
  secRegistrantsSource,
];
