/**
 * README's configuration table, generated from SETTINGS (STYLE habit 10) by
 * `node scripts/config-table.mjs`; a test fails when README and SETTINGS disagree.
 */
import type { SettingDefinition } from './config.js';

export const CONFIG_TABLE_START = '<!-- config-table:start -->';
export const CONFIG_TABLE_END = '<!-- config-table:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderConfigTable(settings: readonly SettingDefinition[]): string {
  const rows = settings.map((s) => {
    const value = s.default === null ? '(unset)' : s.default === '' ? '(empty)' : `\`${cell(s.default)}\``;
    return `| \`${s.env}\` | ${value} | ${cell(s.description)} |`;
  });
  return ['| Variable | Default | Description |', '|---|---|---|', ...rows].join('\n');
}

/** The text between the markers, or null when the markers are missing. */
export function extractConfigTable(readme: string): string | null {
  const start = readme.indexOf(CONFIG_TABLE_START);
  const end = readme.indexOf(CONFIG_TABLE_END);
  if (start < 0 || end < start) return null;
  return readme.slice(start + CONFIG_TABLE_START.length, end).trim();
}

/** README with the table between the markers replaced by a freshly rendered one. */
export function withConfigTable(readme: string, settings: readonly SettingDefinition[]): string {
  const start = readme.indexOf(CONFIG_TABLE_START);
  const end = readme.indexOf(CONFIG_TABLE_END);
  if (start < 0 || end < start) throw new Error(`README lacks ${CONFIG_TABLE_START} … ${CONFIG_TABLE_END}`);
  const table = renderConfigTable(settings);
  return `${readme.slice(0, start + CONFIG_TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}
