/** A deterministic generator of numbers in [0, 1) (a linear congruential one), so a failure reproduces. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
