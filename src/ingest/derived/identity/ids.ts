/** Entity ids of the identity graph (SPEC §7): `scheme:value` strings. */
import { normaliseEntityName } from './names.js';

export type EntityKind = 'bank' | 'holding_company' | 'sec_registrant' | 'manager' | 'adviser' | 'security';

export const certId = (cert: number) => `cert:${cert}`;
export const rssdId = (rssd: number) => `rssd:${rssd}`;
export const cikId = (cik: string | number) => `cik:${String(cik).padStart(10, '0')}`;
export const crdId = (crd: number) => `crd:${crd}`;
export const cusipId = (cusip: string) => `cusip:${cusip}`;

/** A holding company the source names without an RSSD: a stable id from its normalised name. */
export const nameId = (name: string) => `name:${normaliseEntityName(name).toLowerCase().replace(/ /g, '-')}`;

/** A holding company's id: its RSSD when the source gives one, else its name. */
export const holdingCompanyId = (rssd: number | null, name: string | null): string | null =>
  rssd !== null ? rssdId(rssd) : name !== null && name.trim() !== '' ? nameId(name) : null;
