/**
 * A layer shown only on one side of a vertical line across the map, moved without repainting
 * the layer. The layer's container goes into two wrappers, each on a compositor layer of its
 * own: the outer one clips (overflow hidden, the map's size) and is slid sideways by a
 * transform, the inner one is slid back by as much, so the tiles stay where they were and only
 * the clip's edge moves. A frame of a drag then changes two transforms, which the compositor
 * applies to what it already has: no style, layout or paint of the tiles. A CSS `clip` or
 * `clip-path` on the container instead repaints every tile of both layers on each frame.
 */
export interface Point {
  x: number;
  y: number;
}

export class SlidingClip {
  private readonly outer: HTMLElement;
  private readonly inner: HTMLElement;
  private width = -1;
  private height = -1;

  constructor(private readonly box: HTMLElement) {
    this.outer = document.createElement('div');
    this.outer.className = 'eo-sliding-clip';
    this.inner = document.createElement('div');
    this.inner.className = 'eo-sliding-clip-inner';
    // keeps the layer's place (and its z-index) among the pane's other layers
    this.outer.style.zIndex = box.style.zIndex;
    box.replaceWith(this.outer);
    this.inner.append(box);
    this.outer.append(this.inner);
  }

  /**
   * Shows the layer left (or right) of `x`, in pixels from the map's left edge. `origin` is the
   * map's top-left corner in the pane's coordinates (it moves as the map pans), `size` the map's.
   */
  show(side: 'left' | 'right', x: number, origin: Point, size: Point): void {
    if (size.x !== this.width || size.y !== this.height) {
      this.width = size.x;
      this.height = size.y;
      this.outer.style.width = `${size.x}px`;
      this.outer.style.height = `${size.y}px`;
    }
    // the clip box is the map's width: its left edge at x shows [x, right edge]; its right
    // edge at x shows [left edge, x]
    const dx = Math.round(side === 'right' ? x : x - size.x);
    this.outer.style.transform = `translate3d(${origin.x + dx}px, ${origin.y}px, 0)`;
    this.inner.style.transform = `translate3d(${-origin.x - dx}px, ${-origin.y}px, 0)`;
  }

  /** Shows the whole layer (flicker mode). */
  showAll(origin: Point, size: Point): void {
    this.show('right', 0, origin, size);
  }

  /** Puts the container back where it was; when the layer left the map meanwhile, only the wrappers go. */
  release(): void {
    if (this.box.parentNode === this.inner) this.outer.replaceWith(this.box);
    else this.outer.remove();
  }
}
