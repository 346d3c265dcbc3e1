/** The demo's shared types, apart from its entry so the parts never import the module that loads them. */
import type { DbHandle } from '../db/connect.js';

export interface DemoOptions {
  /** Same seed → identical table contents. */
  readonly seed: number;
  /** `small` (default: the out-of-the-box demo) or `full` (real-world size, for benchmarks). */
  readonly scale: DemoScale;
  readonly log?: (line: string) => void;
  /**
   * Into an empty SQLite database, build the two halves at the same time (side-by-side.ts). By
   * default at full scale only, where it pays (153 → 112–122 s). The small demo is mostly its
   * banking half, so it gains nothing (18.4–20.3 s one by one, 19.4–19.6 s side by side) and peaks
   * 1 GB higher.
   */
  readonly sideBySide?: boolean;
}

export type DemoScale = 'small' | 'full';

export type DemoPart = (handle: DbHandle, options: DemoOptions) => Promise<void>;
