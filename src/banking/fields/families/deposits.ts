/** Deposits: by office, interest, product and size; brokered, core, insured and uninsured estimates (SPEC §5). */

import type { FinancialField } from '../types.js';
import { fieldsOf, part, share } from './define.js';

const f = fieldsOf('deposits');

export const DEPOSIT_FIELDS: readonly FinancialField[] = [
  f.stock(
    'deposits_domestic',
    'DEPDOM',
    'Deposits in domestic offices',
    'The sum of all domestic office deposits, including demand deposits, money market deposits, other savings deposits and time deposits.',
    { ffiec: 'RCON2200', demo: share('total_deposits', 0.999, 1) },
  ),
  // definition: from FDIC title
  f.stock(
    'deposits_foreign',
    'DEPFOR',
    'Deposits in foreign offices',
    'Total deposits held in foreign offices.',
    { ffiec: 'RCFN2200', demo: share('total_deposits', 0, 0.001) },
  ),
  // definition: SDI
  f.stock(
    'interest_bearing_deposits',
    'DEPI',
    'Interest-bearing deposits',
    'Interest-bearing deposits (includes interest-bearing deposits in foreign offices).',
    { ffiec: 'RCON6636 + RCFN6636', demo: part('total_deposits', 0.65, 0.9) },
  ),
  // definition: from FDIC title
  f.stock(
    'noninterest_bearing_deposits',
    'DEPNI',
    'Noninterest-bearing deposits',
    'Noninterest-bearing deposits (includes noninterest-bearing deposits in foreign offices).',
    { ffiec: 'RCON6631 + RCFN6631', demo: part('total_deposits', 0.1, 0.35) },
  ),
  // definition: from FDIC title
  f.stock(
    'transaction_deposits',
    'TRN',
    'Transaction accounts',
    'Total transaction accounts (deposits in domestic offices).',
    { ffiec: 'RCON2215', demo: part('deposits_domestic', 0.2, 0.4) },
  ),
  // definition: from FDIC title
  f.stock(
    'nontransaction_deposits',
    'NTR',
    'Nontransaction accounts',
    'Total nontransaction accounts (deposits in domestic offices).',
    { ffiec: 'RCON2385', demo: part('deposits_domestic', 0.6, 0.8) },
  ),
  // definition: from FDIC title
  f.stock(
    'mmda_deposits',
    'NTRSMMDA',
    'Money market deposit accounts',
    'Savings deposits: money market deposit accounts (MMDAs).',
    { ffiec: 'RCON6810', demo: part('nontransaction_deposits', 0.25, 0.45) },
  ),
  // definition: from FDIC title
  f.stock(
    'other_savings_deposits',
    'NTRSOTH',
    'Other savings deposits',
    'Savings deposits other than money market deposit accounts.',
    { ffiec: 'RCON0352', demo: part('nontransaction_deposits', 0.15, 0.35) },
  ),
  // definition: from FDIC title
  f.stock('time_deposits', 'NTRTIME', 'Time deposits', 'Total time deposits.', {
    ffiec: 'RCON6648 + RCONJ473 + RCONJ474',
    demo: part('nontransaction_deposits', 0.25, 0.5),
  }),
  // definition: from FDIC title
  f.stock(
    'time_deposits_over_250k',
    'NTRTMLGJ',
    'Time deposits of more than $250,000',
    'Amount of total time deposits of more than $250,000.',
    { ffiec: 'RCONJ474', demo: part('time_deposits', 0.1, 0.3) },
  ),
  // definition: from FDIC title
  f.stock(
    'time_deposits_250k_or_less',
    'NTRTMMED',
    'Time deposits of $250,000 or less',
    'Amount of time deposits of $250,000 or less.',
    { ffiec: 'RCON6648 + RCONJ473', demo: part('time_deposits', 0.7, 0.9) },
  ),
  // definition: from FDIC title
  f.stock('brokered_deposits', 'BRO', 'Brokered deposits', 'Brokered deposits.', {
    ffiec: 'RCON2365',
    demo: share('total_deposits', 0, 0.08),
  }),
  // definition: from FDIC title
  f.stock('core_deposits', 'COREDEP', 'Core deposits', 'Core deposits.', {
    demo: share('total_deposits', 0.7, 0.92),
  }),
  // definition: from FDIC title
  f.stock('insured_deposits', 'DEPINS', 'Estimated insured deposits', 'Estimated insured deposits.', {
    demo: share('total_deposits', 0.55, 0.85),
  }),
  // definition: from FDIC title
  f.stock(
    'uninsured_deposits',
    'DEPUNA',
    'Estimated uninsured deposits',
    'Estimated uninsured deposits in domestic offices and in insured branches in U.S. territories and possessions.',
    { ffiec: 'RCON5597', demo: share('total_deposits', 0.15, 0.45) },
  ),
  // definition: from FDIC title
  f.stock(
    'deposits_before_exclusions',
    'DEPBEFEX',
    'Total deposit liabilities before exclusions',
    'Total deposit liabilities before exclusions (gross), the base of the estimated insured share.',
    { demo: share('total_deposits', 1, 1.03) },
  ),
];
