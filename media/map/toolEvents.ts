/**
 * The one place that keeps what happens inside a map tool (layer list, legend, inspector,
 * histogram, chart, time slider, compare, the toolbar) on the tool: a click on Stretch opens no
 * footprint below it, a slider button reads no pixel, a wheel turn scrolls the tool rather than
 * zooming, and an arrow key moves the tool's handle rather than panning the map.
 */
import type * as Leaflet from 'leaflet';

const TOOL = 'data-eo-tool';

/** Escape still reaches the map: it is how a person leaves pixel inspection or compare. */
const stopKey = (e: KeyboardEvent) => {
  if (e.key !== 'Escape') e.stopPropagation();
};

export function keepEventsInside(L: typeof Leaflet, ...tools: HTMLElement[]): void {
  for (const tool of tools) {
    tool.setAttribute(TOOL, '');
    L.DomEvent.disableClickPropagation(tool);
    L.DomEvent.disableScrollPropagation(tool);
    tool.addEventListener('keydown', stopKey);
    tool.addEventListener('keyup', stopKey);
  }
}

/**
 * Whether an event began inside a tool. For the map's capturing listeners, which see the
 * event before the tool can stop it.
 */
export function insideTool(target: EventTarget | null): boolean {
  return target instanceof Element && !!target.closest(`[${TOOL}], .leaflet-control`);
}
