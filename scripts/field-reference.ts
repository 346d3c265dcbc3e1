// Writes docs/fields.md from the call-report catalogue (`npm run docs:fields`); the server serves
// the same page at GET /api/v1/fields.md.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fieldReference } from '../src/banking/fields/reference.js';

writeFileSync(join(import.meta.dirname, '..', 'docs', 'fields.md'), fieldReference());
console.log('docs/fields.md written');
