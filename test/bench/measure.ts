/** What the benchmarks share to measure: the median of their runs, and a collection before a heap is read. */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** The middle sample (the upper of the two middle ones for an even count), as the benches report their runs. */
export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/**
 * A full garbage collection, also in a process started without `--expose-gc` (the extension
 * host): the heap read next is what is held, not what is garbage.
 */
export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
