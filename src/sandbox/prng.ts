/** A small seeded PRNG (mulberry32) so the world is the same for the same seed. */
export class Rng {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }

  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, maxInclusive: number): number {
    return Math.floor(this.range(min, maxInclusive + 1));
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A UUID-shaped id drawn from the stream (version nibble 4, variant 8..b). */
  uuid(): string {
    const h = (n: number): string => Array.from({ length: n }, () => Math.floor(this.next() * 16).toString(16)).join('');
    return `${h(8)}-${h(4)}-4${h(3)}-${'89ab'[Math.floor(this.next() * 4)]}${h(3)}-${h(12)}`;
  }

  /** A child stream, so adding draws in one part of the world does not shift another. */
  fork(label: string): Rng {
    let x = this.s ^ 0x85ebca6b;
    for (let i = 0; i < label.length; i++) x = Math.imul(x ^ label.charCodeAt(i), 0x01000193) >>> 0;
    return new Rng(x);
  }
}
