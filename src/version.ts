import { readFileSync } from 'node:fs';

/** The package version; part of every ETag so a deploy invalidates cached answers. */
export const version: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
