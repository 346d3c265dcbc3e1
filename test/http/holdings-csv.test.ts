/** `format=csv` (the generic list layer) on the holdings list endpoints. */
import { describe, expect, it } from 'vitest';
import { CUSIP, seedHoldings } from '../fixtures/holdings.js';
import { useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

describe.each(testBackends())('holdings CSV on $name', (backend) => {
  const ctx = useTestApp(backend, seedHoldings);

  it.each([
    ['/api/holdings?format=csv', 'cik,name', 5],
    ['/api/holdings?mode=stocks&format=csv', 'cusip,issuer', 7],
    [`/api/holdings?mode=stocks&cusip=${CUSIP.AAPL}&format=csv`, 'cik,name', 7],
    ['/api/advisers?format=csv', 'crd,sec_number', 6],
    ['/api/holdings/1067983/timeline?format=csv', 'quarter,total_value', 4],
    ['/api/crowded?format=csv', 'cusip,issuer', 6],
  ])('%s answers CSV', async (url, header, lines) => {
    const response = await ctx.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const rows = response.body.trim().split(/\r?\n/);
    expect(rows[0]).toContain(header);
    expect(rows).toHaveLength(lines);
  });
});
