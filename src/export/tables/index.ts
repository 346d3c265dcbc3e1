/** Every table the export writes, in order. Adding one is an entry here (and its definition). */
import type { ExportTable } from '../types.js';
import { failures, financials, institutions, macroObservations } from './banking.js';
import { advisers, entityLinks, managers, positions, securities } from './holdings.js';

export const EXPORT_TABLES: readonly ExportTable[] = [
  institutions,
  financials,
  failures,
  macroObservations,
  advisers,
  managers,
  positions,
  securities,
  entityLinks,
];
