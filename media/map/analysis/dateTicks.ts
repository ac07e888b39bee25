/** The series chart's time axis labels. Pure. */
/**
 * ISO labels for the time axis, as precise as the tick spacing needs: months repeated
 * ("2026-05, 2026-05, 2026-06") when ticks are half a month apart read as a broken axis.
 * `span`, the axis's range in seconds, sets the precision when there is a single tick: four
 * monthly dates in a narrow chart get one tick, which said only "2026".
 */
export function dateTicks(seconds: number[], span = Infinity): string[] {
  const step = seconds.length > 1 ? Math.abs(seconds[1] - seconds[0]) : span;
  const chars = step < 28 * 86_400 ? 10 : step < 365 * 86_400 ? 7 : 4;
  return seconds.map((v) => new Date(v * 1000).toISOString().slice(0, chars));
}
