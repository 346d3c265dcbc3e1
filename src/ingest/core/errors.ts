/**
 * The ingest's error taxonomy, in one place every layer imports (and that imports nothing):
 * - FieldError: one upstream value is unusable; the row is rejected and the reason counted.
 * - IngestError: the load cannot go on (bad input, upstream refused); printed without a stack.
 * - LoadRefused: the ingest guard refused the load (too many rejected rows, or a shrink).
 */

export class FieldError extends Error {
  override name = 'FieldError';
}

export class IngestError extends Error {
  override name = 'IngestError';
}

/** Which guard rule refused a load, and the figures that made it fire. */
export interface Refusal {
  readonly rule: 'rejected-rows' | 'shrink';
  /** The table whose scope would shrink (shrink rule only). */
  readonly table?: string;
  /** Rows rejected, or served rows the load would remove. */
  readonly count: number;
  /** Rows read, or served rows in the replaced scope. */
  readonly of: number;
  readonly percent: number;
  readonly limit_percent: number;
}

export class LoadRefused extends IngestError {
  override name = 'LoadRefused';

  constructor(
    readonly refusal: Refusal,
    message: string,
  ) {
    super(message);
  }
}
