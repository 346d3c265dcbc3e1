/**
 * What a message to or from the packing worker can move instead of copying: the buffers of its
 * typed arrays, each only when one array owns it whole.
 */

/** The typed arrays among a value's fields, however deep in arrays and objects (columns' chunks). */
export function columnViews(value: unknown): ArrayBufferView[] {
  if (ArrayBuffer.isView(value)) return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap((field) =>
    field !== null && typeof field === 'object' ? columnViews(field) : [],
  );
}

/** The buffers of `views` that a message can move: each owned whole by one view. */
export function ownedBuffers(views: readonly ArrayBufferView[]): ArrayBuffer[] {
  const seen = new Set<ArrayBufferLike>();
  return views.flatMap(({ buffer, byteOffset, byteLength }) => {
    const whole = byteOffset === 0 && byteLength === buffer.byteLength;
    if (!whole || seen.has(buffer) || !(buffer instanceof ArrayBuffer)) return [];
    seen.add(buffer);
    return [buffer];
  });
}
