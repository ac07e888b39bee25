/**
 * The sandbox clock: wall time scaled by `speed`, plus whatever tests add with `advance(ms)`.
 * Statuses are computed from it on every read, so no timers run.
 */
export interface SandboxClock {
  now(): number;
  advance(ms: number): void;
}

export class Clock implements SandboxClock {
  private readonly wallStart = Date.now();
  private offset = 0;

  constructor(
    private readonly start: number,
    private readonly speed = 1,
  ) {}

  now(): number {
    return Math.floor(this.start + (Date.now() - this.wallStart) * this.speed + this.offset);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('clock.advance needs a non-negative number of ms');
    this.offset += ms;
  }
}
