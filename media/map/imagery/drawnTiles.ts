/** The imagery pane's drawn tiles (images; canvases for layers drawn on canvas), bottom first. */
export function drawnTiles(pane: HTMLElement): (HTMLImageElement | HTMLCanvasElement)[] {
  return (Array.from(pane.querySelectorAll('img, canvas')) as (HTMLImageElement | HTMLCanvasElement)[]).filter((t) =>
    t instanceof HTMLImageElement ? t.complete && t.naturalWidth > 0 : t.width > 0,
  );
}
