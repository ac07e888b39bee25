/**
 * Real places the seeded AOIs sit on: farmland, reservoirs, cities and coasts per user, one
 * over the antimeridian (Fiji) and one at high latitude. Radii are in km.
 */
export type PlaceKind = 'farmland' | 'reservoir' | 'city' | 'coast' | 'island' | 'polar';

export interface Place {
  name: string;
  kind: PlaceKind;
  lon: number;
  lat: number;
  radiusKm: number;
  project: number;
}

export const ALICE_PLACES: readonly Place[] = [
  { name: 'Central Valley almonds', kind: 'farmland', lon: -120.45, lat: 36.75, radiusKm: 6, project: 0 },
  { name: 'Punjab wheat belt', kind: 'farmland', lon: 75.85, lat: 30.9, radiusKm: 7, project: 0 },
  { name: 'Nile Delta fields', kind: 'farmland', lon: 31.05, lat: 30.8, radiusKm: 5, project: 0 },
  { name: 'Mato Grosso soy', kind: 'farmland', lon: -55.65, lat: -12.55, radiusKm: 9, project: 0 },
  { name: 'Lake Mead', kind: 'reservoir', lon: -114.55, lat: 36.15, radiusKm: 8, project: 1 },
  { name: 'Three Gorges Reservoir', kind: 'reservoir', lon: 110.95, lat: 30.85, radiusKm: 6, project: 1 },
  { name: 'Paris centre', kind: 'city', lon: 2.35, lat: 48.86, radiusKm: 4, project: 2 },
  { name: 'Nairobi', kind: 'city', lon: 36.82, lat: -1.29, radiusKm: 5, project: 2 },
  { name: 'Algarve coast', kind: 'coast', lon: -8.1, lat: 37.08, radiusKm: 6, project: 2 },
  { name: 'Port of Rotterdam', kind: 'coast', lon: 4.1, lat: 51.95, radiusKm: 5, project: 2 },
  { name: 'Cairns reef coast', kind: 'coast', lon: 145.78, lat: -16.92, radiusKm: 6, project: 2 },
  { name: 'Taveuni, Fiji (antimeridian)', kind: 'island', lon: 180, lat: -16.85, radiusKm: 12, project: 1 },
  { name: 'Longyearbyen, Svalbard', kind: 'polar', lon: 15.63, lat: 78.22, radiusKm: 6, project: 3 },
];

export const BOB_PLACES: readonly Place[] = [
  { name: 'Iowa corn and soy', kind: 'farmland', lon: -93.62, lat: 42.03, radiusKm: 7, project: 0 },
  { name: 'Pampas near Buenos Aires', kind: 'farmland', lon: -60.6, lat: -34.6, radiusKm: 8, project: 0 },
  { name: 'Po Valley rice', kind: 'farmland', lon: 8.6, lat: 45.3, radiusKm: 6, project: 0 },
  { name: 'Lake Kariba', kind: 'reservoir', lon: 28.2, lat: -16.85, radiusKm: 9, project: 1 },
  { name: 'Itaipu Reservoir', kind: 'reservoir', lon: -54.45, lat: -25.1, radiusKm: 7, project: 1 },
  { name: 'Lake Nasser', kind: 'reservoir', lon: 32.85, lat: 22.95, radiusKm: 9, project: 1 },
  { name: 'Tokyo', kind: 'city', lon: 139.7, lat: 35.68, radiusKm: 5, project: 2 },
  { name: 'Lagos', kind: 'city', lon: 3.38, lat: 6.45, radiusKm: 5, project: 2 },
  { name: 'Cape Town coast', kind: 'coast', lon: 18.42, lat: -33.92, radiusKm: 6, project: 2 },
  { name: 'Sydney Northern Beaches', kind: 'coast', lon: 151.29, lat: -33.75, radiusKm: 5, project: 2 },
  { name: 'San Francisco Bay', kind: 'coast', lon: -122.35, lat: 37.8, radiusKm: 6, project: 2 },
  { name: 'Rabi and Vanua Levu, Fiji (antimeridian)', kind: 'island', lon: -179.95, lat: -16.45, radiusKm: 14, project: 1 },
  { name: 'Nuuk, Greenland', kind: 'polar', lon: -51.72, lat: 64.18, radiusKm: 6, project: 3 },
];

export const PROJECT_NAMES: readonly { name: string; title: string }[] = [
  { name: 'agri-monitoring', title: 'Agriculture monitoring' },
  { name: 'water-resources', title: 'Water resources' },
  { name: 'urban-coastal', title: 'Urban and coastal change' },
  { name: 'polar-watch', title: 'Polar watch' },
];
