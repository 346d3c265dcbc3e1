/** LOG_FORMAT=auto: human-readable on a terminal, JSON otherwise; `json` and `pretty` force one. */
import { describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { wantsPrettyLog } from '../../src/http/access-log.js';

describe('the log format', () => {
  it.each([
    ['auto', true, true],
    ['auto', false, false],
    ['auto', undefined, false],
    ['json', true, false],
    ['pretty', false, true],
  ] as const)('LOG_FORMAT=%s with a TTY %s: pretty %s', (logFormat, isTTY, pretty) => {
    expect(wantsPrettyLog(configWith({ logFormat }), isTTY)).toBe(pretty);
  });
});
