import { Type } from 'typebox';

export interface Page {
  limit: number;
  offset: number;
}

/** The envelope fields every paginated list carries. */
export const pageEnvelopeFields = {
  total: Type.Integer({ description: 'Number of records matching the filters (all pages)' }),
  limit: Type.Integer({ description: 'The limit applied (after clamping to the maximum)' }),
  offset: Type.Integer({ description: 'The offset applied; 0 when none was sent' }),
};
