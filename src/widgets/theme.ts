/** The two widget themes. `light` has the white #ffffff background SPEC §2 asks for. */

export const THEMES = ['dark', 'light'] as const;
export type Theme = (typeof THEMES)[number];

export interface Palette {
  readonly background: string;
  readonly border: string;
  readonly text: string;
  readonly muted: string;
  readonly line: string;
  readonly zero: string;
  readonly good: string;
  readonly bad: string;
}

export const PALETTES: Readonly<Record<Theme, Palette>> = {
  dark: {
    background: '#0f172a',
    border: '#1e293b',
    text: '#f1f5f9',
    muted: '#94a3b8',
    line: '#38bdf8',
    zero: '#475569',
    good: '#4ade80',
    bad: '#f87171',
  },
  light: {
    background: '#ffffff',
    border: '#e2e8f0',
    text: '#0f172a',
    muted: '#475569',
    line: '#0369a1',
    zero: '#cbd5e1',
    good: '#15803d',
    bad: '#b91c1c',
  },
};

export const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";

/** Card size in CSS pixels: the iframe size the snippets use. */
export const CARD_WIDTH = 300;
export const CARD_HEIGHT = 130;
