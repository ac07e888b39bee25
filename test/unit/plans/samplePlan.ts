/** Order plans for the tests: what the wizards write, over an AOI near (10°E, 10°N). */
import type { OrderPlan } from '../../../src/plans/planFile';

export const ring: [number, number][] = [
  [10, 10],
  [10.2, 10],
  [10.2, 10.2],
  [10, 10.2],
  [10, 10],
];
/** A plan as the wizards write it: an archive item of two scenes over an AOI, a tasking item. */
export function samplePlan(): OrderPlan {
  return {
    name: 'Vineyards, spring',
    project: { id: 'prj-1', name: 'Vineyards' },
    usecase: 'agriculture',
    delivery: { store: { id: 'st-1', name: 'Team bucket' }, path: 'deliveries/2025' },
    items: [
      {
        kind: 'archive',
        name: 'Spring scenes',
        aoi: { id: 'aoi-1', name: 'North field' },
        geometry: { type: 'Polygon', coordinates: [ring] },
        scenes: [
          { collection: 'sentinel-2-l2a', id: 'S2A_1', acquired: '2025-03-01', bbox: [9.9, 9.9, 10.5, 10.5] },
          { collection: 'sentinel-2-l2a', id: 'S2A_2', acquired: '2025-03-06', bbox: [10.1, 10.1, 10.8, 10.8] },
        ],
      },
      {
        kind: 'tasking',
        name: 'Summer capture',
        aoi: { id: 'aoi-1', name: 'North field' },
        geometry: { type: 'Polygon', coordinates: [ring] },
        start: '2025-06-01',
        end: '2025-06-15',
        recurrence: 'ONCE',
        occurrences: 1,
        bandset: { id: 'bs-1', name: 'RGB + NIR' },
        cloudCover: 20,
        offNadir: 30,
        speed: 'STANDARD',
      },
    ],
  };
}
