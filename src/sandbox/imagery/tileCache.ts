/** A least-recently-used cache of synthesized tiles, bounded in bytes. */
export class TileCache {
  private readonly map = new Map<string, Buffer>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(readonly budget: number) {}

  get(key: string, make: () => Buffer): Buffer {
    const hit = this.map.get(key);
    if (hit) {
      this.hits++;
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    this.misses++;
    const v = make();
    this.map.set(key, v);
    this.bytes += v.length;
    while (this.bytes > this.budget && this.map.size > 1) {
      const [k, old] = this.map.entries().next().value as [string, Buffer];
      this.map.delete(k);
      this.bytes -= old.length;
    }
    return v;
  }

  get size(): number {
    return this.bytes;
  }
}
