/** Structure: offices and employees (SPEC §5). */

import type { FinancialField } from '../types.js';
import { fieldsOf, perBillion, share } from './define.js';

const f = fieldsOf('structure');

export const STRUCTURE_FIELDS: readonly FinancialField[] = [
  f.count(
    'offices_domestic',
    'OFFDOM',
    'Domestic offices',
    'The number of domestic offices (including headquarters) operated by active institutions in the 50 states of the U.S.A.',
    { demo: perBillion('total_assets', 3, 30) },
  ),
  f.count(
    'offices_foreign',
    'OFFFOR',
    'Foreign offices',
    'The number of foreign offices (outside the U.S.) operated by the institution.',
    { demo: share('offices_domestic', 0, 0.01) },
  ),
  f.count(
    'offices_total',
    'OFFTOT',
    'Total offices',
    'The total number of offices operated by an institution.',
    { demo: share('offices_domestic', 1, 1.01) },
  ),
  // definition: SDI
  f.count(
    'employees',
    'NUMEMP',
    'Full-time equivalent employees',
    'The number of full-time employees on the payroll of the bank and its subsidiaries at the end of the quarter.',
    { demo: perBillion('total_assets', 100, 300) },
  ),
];
