/**
 * The Create AOI form under the search buttons: a name, a project and a satellite for the
 * drawn shape. The extension then asks for the images (a search over the shape) and creates it.
 */
import type { CreateAoiParams, MapFeature, MapRequest, MapResults, SearchOptions } from '../../src/panels/protocol';
import * as l10n from '@vscode/l10n';
import { km2 } from '../../src/format';
import { geodesicArea } from '../../src/geo/area';
import { ringToGeoJson } from '../../src/geo/antimeridian';
import { append, button, clear, el } from '../shared/dom';
import type { Rpc } from '../shared/vscodeApi';
import type { DrawnShape } from './draw';
import { fill, listError } from './selectOptions';

export interface AoiHost {
  rpc: Rpc<MapRequest, MapResults>;
  aoiCreated(feature: MapFeature): void;
}

/** The search form's lists, which the AOI form offers too. */
export interface AoiChoices {
  readonly options: SearchOptions | undefined;
  loadOptions(): Promise<void>;
  chosenSatellites(): string[];
}

export class AoiForm {
  readonly root: HTMLElement;

  constructor(
    private readonly host: AoiHost,
    private readonly choices: AoiChoices,
  ) {
    this.root = el('div', { class: 'aoi-form', id: 'aoi-form', hidden: true });
  }

  hide(): void {
    this.root.hidden = true;
  }

  /** The form for `shape` (a shape across the antimeridian gets a line saying why not). */
  open(shape: DrawnShape): void {
    clear(this.root);
    this.root.hidden = false;
    const g = ringToGeoJson(shape.ring);
    if (g.type !== 'Polygon') {
      append(
        this.root,
        el('p', { class: 'error' }, l10n.t('This shape crosses the antimeridian; an AOI is a single Polygon, so draw it on one side of the 180° meridian.')),
      );
      return;
    }
    const name = el('input', { type: 'text', id: 'aoi-name', required: true, maxlength: 200, placeholder: l10n.t('Name') });
    const desc = el('input', { type: 'text', id: 'aoi-desc', maxlength: 1000, placeholder: l10n.t('Description (optional)') });
    const project = el('select', { id: 'aoi-project' });
    const satellite = el('select', { id: 'aoi-satellite' });
    const err = el('div', { class: 'error', id: 'aoi-error', role: 'alert' });
    const submit = button(l10n.t('Choose Images…'), () => void create(), { id: 'aoi-submit' });
    const fillSelects = () => {
      const options = this.choices.options;
      fill(
        project,
        (options?.projects ?? []).map((p) => [p.id, p.name || p.id]),
      );
      fill(
        satellite,
        (options?.satellites ?? []).map((s) => [s.id, s.name || s.id]),
        this.choices.chosenSatellites(),
      );
      if (options?.errors.projects) err.textContent = listError('projects', options.errors.projects);
    };
    void this.choices.loadOptions().then(fillSelects);
    const create = async () => {
      err.textContent = '';
      if (!name.value.trim()) return void (err.textContent = l10n.t('Give the AOI a name.'));
      if (!project.value) return void (err.textContent = l10n.t('Pick a project.'));
      if (!satellite.value) return void (err.textContent = l10n.t('Pick a satellite.'));
      submit.disabled = true;
      const params: CreateAoiParams = {
        name: name.value.trim(),
        description: desc.value.trim() || undefined,
        projectId: project.value,
        satelliteId: satellite.value,
        ring: shape.ring,
      };
      await this.create(params, err);
      submit.disabled = false;
    };
    append(
      this.root,
      el('h3', {}, l10n.t('New AOI')),
      el('div', { class: 'muted', id: 'aoi-area' }, l10n.t('Geodesic area: {0}', km2(geodesicArea(g)))),
      el('label', { class: 'field' }, l10n.t('Name'), name),
      el('label', { class: 'field' }, l10n.t('Description'), desc),
      el('label', { class: 'field' }, l10n.t('Project'), project),
      el('label', { class: 'field' }, l10n.t('Satellite'), satellite),
      err,
      el(
        'div',
        { class: 'row' },
        submit,
        button(l10n.t('Cancel'), () => this.hide(), { class: 'secondary' }),
      ),
    );
    name.focus();
  }

  /** Asks the extension to create the AOI; `err` says why not (cancelled, or the service's answer). */
  private async create(params: CreateAoiParams, err: HTMLElement): Promise<void> {
    try {
      // the extension now asks for the images (a search over the shape) before creating
      err.textContent = '';
      const feature = await this.host.rpc.call({ method: 'createAoi', params });
      if (!feature) {
        err.textContent = l10n.t('No AOI created: the image choice was cancelled.');
        return;
      }
      this.hide();
      this.host.aoiCreated(feature);
    } catch (e) {
      const status = (e as { status?: unknown }).status;
      err.textContent = `${typeof status === 'number' ? `${status}: ` : ''}${(e as Error).message}`;
    }
  }
}
