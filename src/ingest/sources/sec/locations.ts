/**
 * 13F cover pages give `STATEORCOUNTRY` as an EDGAR code: a USPS code for US addresses, otherwise
 * EDGAR's own country/province codes (`A6` Ontario, `X0` United Kingdom …). Stored as a USPS
 * `state` (US only) plus an ISO 3166 alpha-2 `country`; an unknown code leaves the country null
 * rather than guessing.
 */
import { USPS_CODES } from '../../../usps-codes.js';

const US = new Set<string>(USPS_CODES);

// EDGAR location codes of the countries 13F filers most often report from.
const EDGAR_COUNTRIES: Record<string, string> = {
  ...Object.fromEntries(
    ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9', 'B0', 'Z4'].map((c) => [c, 'CA']),
  ),
  C3: 'AU',
  C4: 'AT',
  C5: 'BS',
  C9: 'BE',
  D0: 'BM',
  D5: 'BR',
  D8: 'VG',
  E9: 'KY',
  F4: 'CN',
  G7: 'DK',
  H9: 'FI',
  I0: 'FR',
  '2M': 'DE',
  K3: 'HK',
  K7: 'IN',
  L2: 'IE',
  L3: 'IL',
  L6: 'IT',
  M0: 'JP',
  M5: 'KR',
  N2: 'LI',
  N4: 'LU',
  O5: 'MX',
  O9: 'MC',
  P7: 'NL',
  Q2: 'NZ',
  Q8: 'NO',
  T3: 'ZA',
  U0: 'SG',
  U3: 'ES',
  V7: 'SE',
  V8: 'CH',
  F5: 'TW',
  X0: 'GB',
  Y7: 'GG',
  Y9: 'JE',
};

export function edgarLocation(code: string | null): { state: string | null; country: string | null } {
  const value = code?.trim().toUpperCase() ?? '';
  if (value === '') return { state: null, country: null };
  if (US.has(value)) return { state: value, country: 'US' };
  return { state: null, country: EDGAR_COUNTRIES[value] ?? null };
}
