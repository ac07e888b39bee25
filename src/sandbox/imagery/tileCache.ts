/** A least-recently-used cache of synthesized tiles, bounded in bytes. */
export class TileCache {
  private readonly map = new Map<string, Buffer>();
  private bytes = 0;

  constructor(readonly budget: number) {}

  get(key: string): Buffer | undefined {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  put(key: string, v: Buffer): void {
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= old.length;
    }
    this.map.set(key, v);
    this.bytes += v.length;
    while (this.bytes > this.budget && this.map.size > 1) {
      const [k, oldest] = this.map.entries().next().value as [string, Buffer];
      this.map.delete(k);
      this.bytes -= oldest.length;
    }
  }

  get size(): number {
    return this.bytes;
  }
}
