// Figures a suite measures (a time, a size) for the driver to print beside the results: tests
// assert behaviour, never timings, but the person running them should see the numbers.
const figures: string[] = [];

/** Prints `line` in the driver's output after the tests (scripts/test-all.mjs). */
export function printFigure(line: string): void {
  figures.push(line);
}

/** Every figure printed so far (index.ts writes them into the result file). */
export function printedFigures(): string[] {
  return [...figures];
}
