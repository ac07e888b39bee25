/**
 * Which satellite a bandset is for. The service's bandset record names no satellite; its bands
 * do (each band is a {name, wavelength} of one satellite's sensor), so a bandset fits a
 * satellite whose band list holds every one of its bands. Pure: no `vscode`.
 */
import type { Bandset, Satellite } from '../api/records';

/** Same centre wavelength, allowing for rounding in either list. */
function sameWavelength(a: number, b: number): boolean {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return true;
  return Math.abs(a - b) <= Math.max(1e-9, Math.abs(a) * 0.005);
}

export function bandsetFits(bandset: Bandset, satellite: Satellite): boolean {
  if (!bandset.bands.length) return false;
  return bandset.bands.every((b) => satellite.bands.some((s) => s.name === b.name && sameWavelength(s.wavelength, b.wavelength)));
}

/** The satellites a bandset fits (usually one). */
export function satellitesOf(bandset: Bandset, satellites: readonly Satellite[]): Satellite[] {
  return satellites.filter((s) => bandsetFits(bandset, s));
}
