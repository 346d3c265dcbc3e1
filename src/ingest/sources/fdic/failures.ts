/** `fdic-failures`: every failure and assistance transaction BankFind records since 1934. */

import type { Insertable } from 'kysely';
import type { FailuresTable } from '../../../db/tables.js';
import { FieldError } from '../../core/errors.js';
import type { IngestSource } from '../../core/types.js';
import { date, integer, number, requiredText, stateCode, text, type UpstreamRecord } from '../values.js';
import { bankFindApiPages, bankFindUrl, inputPages, stageRecords } from './bankfind.js';

export const FAILURE_FIELDS = [
  'CERT',
  'NAME',
  'CITY',
  'CITYST',
  'PSTALP',
  'FAILDATE',
  'BIDNAME',
  'RESTYPE1',
  'SAVR',
  'QBFASSET',
  'QBFDEP',
  'COST',
] as const;

/** BankFind writes `0` (or leaves it blank, or writes PAYOUT) where deposits were paid out. */
const NO_ACQUIRER = new Set(['0', 'PAYOUT']);

function stateOf(record: UpstreamRecord): string | null {
  const code = stateCode(record, 'PSTALP', 'STNAME');
  if (code !== null) return code;
  const cityState = text(record, 'CITYST');
  const m = cityState ? /,\s*([A-Za-z]{2})$/.exec(cityState) : null;
  return m ? m[1]!.toUpperCase() : null;
}

export function toFailureRow(record: UpstreamRecord): Insertable<FailuresTable> {
  const closing = date(record, 'FAILDATE');
  if (closing === null) throw new FieldError('missing FAILDATE');
  const cert = integer(record, 'CERT');
  const acquirer = text(record, 'BIDNAME');
  return {
    cert: cert === 0 ? null : cert,
    name: requiredText(record, 'NAME'),
    city: text(record, 'CITY'),
    state: stateOf(record),
    closing_date: closing,
    acquiring_institution: acquirer === null || NO_ACQUIRER.has(acquirer.toUpperCase()) ? null : acquirer,
    resolution_type: text(record, 'RESTYPE1'),
    insurance_fund: text(record, 'SAVR'),
    total_assets: number(record, 'QBFASSET'),
    total_deposits: number(record, 'QBFDEP'),
    estimated_loss: number(record, 'COST'),
  };
}

export const fdicFailures: IngestSource = {
  name: 'fdic-failures',
  group: 'banking',
  description: 'FDIC BankFind bank failures since 1934 (all of them, replaced on every load)',
  async run(ctx) {
    const stager = await ctx.stage({
      table: 'failures',
      columns: [
        'cert',
        'name',
        'city',
        'state',
        'closing_date',
        'acquiring_institution',
        'resolution_type',
        'insurance_fund',
        'total_assets',
        'total_deposits',
        'estimated_loss',
      ],
      key: [],
      replace: 'all',
    });
    const query = { endpoint: 'failures', fields: FAILURE_FIELDS, sortBy: 'FAILDATE' } as const;
    const fromApi = ctx.options.from.length === 0;
    if (fromApi) ctx.setUpstream(bankFindUrl(ctx, query, '', 0, 0).split('?')[0]!);
    ctx.progress.start('failures');
    await stageRecords(ctx, fromApi ? bankFindApiPages(ctx, query) : inputPages(ctx), toFailureRow, (row) =>
      stager.add(row),
    );
  },
};
