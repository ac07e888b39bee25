/**
 * What Copy Link to This View shares: the place, what the layers came from, each imagery
 * layer's source and look (never its file URL, nor a picture's data), the compare pair and
 * the time slider's dates by their sources, with the date it shows.
 */
import type { MapState, MapViewState } from '../../src/panels/protocol';
import type { ImageryManager } from './imagery/manager';

export function sharedView(center: [number, number], zoom: number, state: MapState, imagery: ImageryManager | undefined): MapViewState {
  const compare = imagery?.compare.state;
  const timeline = imagery?.timeline;
  const dates = timeline?.dates;
  return {
    center,
    zoom,
    sources: state.sources ?? {},
    imagery: (state.imagery ?? []).map((l) => ({
      id: l.id,
      title: l.title,
      source: l.source,
      ...(l.render.kind === 'png' ? {} : { render: l.render }),
      opacity: l.opacity,
      visible: l.visible,
    })),
    ...(compare && { compare: { left: compare.left, right: compare.right, position: compare.position, mode: compare.mode } }),
    ...(dates && {
      timeline: {
        title: dates.title,
        date: timeline?.state.date,
        frames: dates.frames.map((f) => ({ date: f.date, source: f.spec.source, ...(f.cloudCover !== undefined && { cloudCover: f.cloudCover }) })),
      },
    }),
  };
}
