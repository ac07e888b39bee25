/**
 * The map page's requests, one answer each (`RpcHandlers`, served by webview/requests.ts): the
 * search form's options, a search and its next page (what they show kept in `MapLayers`, so a
 * page that loads again gets it again), an AOI from a drawn shape, and the bytes of an
 * imagery file the extension put on the map.
 */
import type { PanelContext } from './host';
import type { MapImagery } from './imagery/mapImagery';
import { createAoiOnMap } from './mapAoi';
import type { MapLayers } from './mapLayers';
import type { MapSearches } from './mapSearch';
import type { MapRequest, MapResults, RpcHandlers } from './protocol';

export function mapAnswers(ctx: PanelContext, layers: MapLayers, searches: MapSearches, imagery: MapImagery): RpcHandlers<MapRequest, MapResults> {
  return {
    searchOptions: () => searches.options(),
    search: async (r) => {
      const page = await searches.start(r.params);
      layers.put({ layer: 'results', features: page.features, sources: [] }, 'replace');
      return page;
    },
    searchMore: async (r) => {
      const page = await searches.more(r.searchId);
      layers.put({ layer: 'results', features: page.features, sources: [] }, 'append');
      return page;
    },
    createAoi: (r) => createAoiOnMap(ctx, layers, r.params),
    readBytes: (r, signal) => imagery.read(r.params, signal),
  };
}
