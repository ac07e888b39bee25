// For e2e tests that order tasking through the wizard: the first AOI (in a listed project) whose
// satellite has bandsets, read from the service as the test's own client.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { api } from './webviews';
import { answerQuickInput, pickQuickItem } from './widgets';

type Band = { name: string; wavelength: number };

export interface Taskable {
  project: { id: string; name: string; title?: string };
  aoi: { aoi_id: string; name: string; project_id: string; satellite_id: string };
  /** The first bandset the AOI's satellite can capture (what "Bands to capture" picks). */
  bandset: { id: string; name: string };
}

export async function taskableAoi(base: string, token: string): Promise<Taskable> {
  const { projects } = await api<{ projects: Taskable['project'][] }>(base, token, '/v0/projects?page_num=1&page_size=50');
  const { aois } = await api<{ aois: Taskable['aoi'][] }>(base, token, '/v0/aois?limit=100');
  const { bandsets: all } = await api<{ bandsets: { id: string; name: string; bands: Band[] }[] }>(base, token, '/v0/bandsets');
  const sats = await api<{ id: string; bands: Band[] }[] | { satellites: { id: string; bands: Band[] }[] }>(base, token, '/v0/satellites');
  const satList = Array.isArray(sats) ? sats : sats.satellites;
  const fits = (satId: string) => all.filter((b) => b.bands.every((x) => satList.find((s) => s.id === satId)?.bands.some((y) => y.name === x.name)));
  const aoi = aois.find((a) => projects.some((p) => p.id === a.project_id) && fits(a.satellite_id).length > 0);
  assert.ok(aoi, 'an AOI on a satellite with bandsets');
  return { project: projects.find((p) => p.id === aoi.project_id)!, aoi, bandset: fits(aoi.satellite_id)[0] };
}

/**
 * Answers the tasking wizard's steps after the AOI's context menu opened it, up to its priced
 * confirmation: a single capture in the given window, the bandset, 15 % cloud, 25° off-nadir,
 * standard speed, no cloud delivery.
 */
export async function answerTaskingWizard(page: Page, a: { name: string; usecase: string; start: string; end: string; bandset: string }): Promise<void> {
  await answerQuickInput(page, /Name of the order item/, a.name);
  await answerQuickInput(page, /Use case/, a.usecase);
  await answerQuickInput(page, /First day of the capture window/, a.start);
  await answerQuickInput(page, /Last day of the capture window/, a.end);
  await pickQuickItem(page, /How often to capture/, 'Once');
  await pickQuickItem(page, /Bands to capture/, a.bandset);
  await answerQuickInput(page, /Maximum cloud cover/, '15');
  await answerQuickInput(page, /Maximum off-nadir/, '25');
  await pickQuickItem(page, /Delivery speed/, 'Standard');
  await pickQuickItem(page, /Deliver to a cloud store when fulfilled/, 'No cloud delivery');
}
