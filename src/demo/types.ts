/** The demo's shared types, apart from its entry so the parts never import the module that loads them. */
import type { DbHandle } from '../db/connect.js';

export interface DemoOptions {
  /** Same seed → identical table contents. */
  readonly seed: number;
  /** `small` (default: the out-of-the-box demo) or `full` (real-world size, for benchmarks). */
  readonly scale: DemoScale;
  readonly log?: (line: string) => void;
}

export type DemoScale = 'small' | 'full';

export type DemoPart = (handle: DbHandle, options: DemoOptions) => Promise<void>;
