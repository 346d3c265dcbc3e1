/**
 * The field reference page, generated from the catalogue: served at GET /api/v1/fields.md, and
 * written to docs/fields.md by `npm run docs:fields` (not committed, so it can never go stale).
 */
import { FINANCIAL_FIELDS } from './catalogue.js';
import type { FinancialField } from './types.js';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function derivation(field: FinancialField): string {
  const parts: string[] = [];
  if (field.ffiec) parts.push(`FFIEC \`${field.ffiec}\``);
  if (field.ratio) {
    const list = (v: string | readonly string[]) => (typeof v === 'string' ? v : v.join(' + '));
    parts.push(
      `100 × ${list(field.ratio.numerator)}${field.ratio.annualised ? ' (annualised)' : ''} / ${list(field.ratio.denominator)}`,
    );
  }
  return parts.join('; ') || '–';
}

export function fieldReference(): string {
  const families = [...new Set(FINANCIAL_FIELDS.map((f) => f.family))];
  const lines = [
    '# Call-report field reference',
    '',
    '<!-- Generated from src/banking/fields/catalogue.ts (GET /api/v1/fields.md, `npm run docs:fields`). -->',
    '',
    `${FINANCIAL_FIELDS.length} fields, served by \`GET /api/v1/financials\` (\`fields=\`, \`{field}__gte\`…, \`sortBy\`),`,
    '`/api/v1/peers` and `/api/v1/aggregates`, and listed by `GET /api/v1/fields`. Units: `thousands_usd`',
    '(thousands of USD), `percent` (1.05 means 1.05 %), `count`. Kinds: `stock` (balance at the report',
    'date), `flow_ytd` (year to date), `flow_quarter` (the quarter alone), `ratio`, `count`. Definitions',
    "are FDIC's own (its BankFind field file, or its SDI definitions where that file has none). The",
    'last column says how FFIEC call-report rows (and the demo, for ratios) compute a value that FDIC',
    'has not published yet; FDIC rows always carry FDIC’s own figure.',
    '',
  ];
  for (const family of families) {
    lines.push(
      `## ${family.replaceAll('_', ' ')}`,
      '',
      '| field | FDIC | unit | kind | definition | FFIEC / ratio |',
      '|---|---|---|---|---|---|',
    );
    for (const f of FINANCIAL_FIELDS.filter((x) => x.family === family)) {
      lines.push(
        `| \`${f.name}\` | \`${f.fdic_field}\` | ${f.unit} | ${f.kind} | **${cell(f.title)}.** ${cell(f.description)} | ${cell(derivation(f))} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
