/**
 * What the ordering, delivery and store commands share: getting a client, telling request
 * errors (4xx: the person can fix an entry) from faults, picking a project or a store, and
 * talking to the sidebar when it is there.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient, Project, Store } from '../../api';
import type { RecordKind } from '../../explorer/tree';
import type { CommandServices } from '../services';
import { enumLabel, storeTarget } from '../../format';
import { outcome, type Step, type StepUi } from '../../ui/multiStep';
import { DEFAULT_USECASE, usecaseOf, usecasePrompt } from '../../orders/usecase';
import { checkStorePath, checkUsecase } from '../../orders/rules';

/**
 * Shows a record in its view (reloading the view so a new record is there); with no id, just
 * reloads and focuses the view. Never throws: revealing is a courtesy after the real work.
 */
export async function revealInView(services: CommandServices, view: 'orders' | 'catalog' | 'stores', kind: RecordKind, id?: string): Promise<void> {
  const explorer = services.explorer;
  try {
    explorer.refresh(view);
    if (id) {
      const node = await explorer.reveal(kind, id, { focus: true });
      if (node) return;
    }
    await vscode.commands.executeCommand(`eoImagery.${view}.focus`);
  } catch (err) {
    // Recovers: revealing is a courtesy after the work is done; the work's outcome stands.
    services.log.warn(`Could not reveal ${kind} ${id ?? ''}: ${String(err)}`);
  }
}

export async function loadProjects(client: EoClient, cap = 500): Promise<Project[]> {
  const out: Project[] = [];
  for await (const p of client.projects.iterate({ cap })) out.push(p);
  return out;
}

/** Entries every order item has (docs/service-interface.md: project, name, use case, cloud delivery). */
export interface OrderEntries {
  projectId?: string;
  projectLabel?: string;
  name: string;
  usecase: string;
  /** Store id for cloud delivery; empty for none. */
  storeId: string;
  storeLabel: string;
  path: string;
}

export function emptyOrderEntries(name = ''): OrderEntries {
  return { name, usecase: '', storeId: '', storeLabel: '', path: '' };
}

export function projectStep<S extends { projectId?: string; projectLabel?: string }>(projects: () => Promise<Project[]>): Step<S> {
  return {
    name: l10n.t('Project'),
    describe: (s) => s.projectLabel,
    async ask(s, ui) {
      const list = await projects();
      // Named by title and name: the id stays out of the list (Copy ID in the Projects view has it).
      const items = list.map((p) => ({
        label: p.title || p.name || l10n.t('Untitled project'),
        description: p.title && p.name && p.name !== p.title ? p.name : undefined,
        project: p,
      }));
      const answer = await ui.pick(items, { placeHolder: l10n.t('Project to bill the order to'), activeLabel: s.projectLabel, matchOnDescription: true });
      return outcome(answer, (i) => {
        s.projectId = i.project.id;
        s.projectLabel = i.label;
      });
    },
  };
}

export function textStep<S>(
  name: string,
  prompt: string,
  get: (s: S) => string,
  set: (s: S, v: string) => void,
  validate?: (v: string) => string | undefined,
): Step<S> {
  return {
    name,
    describe: (s) => get(s),
    async ask(s, ui) {
      const answer = await ui.input({ prompt, value: get(s), validate });
      return outcome(answer, (v) => set(s, v.trim()));
    },
  };
}

/** A step that picks one of `values`, each said in words (`enumLabel`), with the current one active. */
export function enumStep<S, V extends string>(
  name: string,
  placeHolder: string,
  values: readonly V[],
  get: (s: S) => string,
  set: (s: S, v: V) => void,
): Step<S> {
  return {
    name,
    describe: (s) => enumLabel(get(s)),
    async ask(s, ui) {
      const answer = await ui.pick(
        values.map((value) => ({ label: enumLabel(value), value })),
        { placeHolder, activeLabel: enumLabel(get(s)) },
      );
      return outcome(answer, (i) => set(s, i.value));
    },
  };
}

const NO_DELIVERY = l10n.t('No cloud delivery');

/** "Amazon S3", "Google Cloud Storage", "Azure Blob Storage": the store's type in words. */
export function storeKind(s: Pick<Store, 'type'>): string {
  switch (s.type) {
    case 'S3':
      return l10n.t('Amazon S3');
    case 'GCS':
      return l10n.t('Google Cloud Storage');
    case 'AZBLOB':
      return l10n.t('Azure Blob Storage');
    default:
      return s.type;
  }
}

/** Store for cloud delivery; `optional` adds "No cloud delivery" (orders). */
export function storeStep<S extends { storeId: string; storeLabel: string }>(stores: () => Promise<Store[]>, optional: boolean): Step<S> {
  return {
    name: l10n.t('Cloud store'),
    describe: (s) => s.storeLabel || NO_DELIVERY,
    async ask(s, ui: StepUi) {
      const list = await stores();
      const items: (vscode.QuickPickItem & { store?: Store })[] = list.map((st) => ({
        label: st.name,
        description: storeKind(st),
        detail: storeTarget(st),
        store: st,
      }));
      if (optional) items.unshift({ label: NO_DELIVERY, description: l10n.t('keep the imagery in the catalog') });
      if (!items.length) {
        await ui.prompts.message('warning', l10n.t('No cloud store is registered. Register one first (EO Imagery: Register Cloud Store…).'), {});
        return 'cancel';
      }
      const answer = await ui.pick(items, {
        placeHolder: optional ? l10n.t('Deliver to a cloud store when fulfilled?') : l10n.t('Cloud store to deliver to'),
        activeLabel: s.storeLabel || (optional ? NO_DELIVERY : undefined),
      });
      return outcome(answer, (i) => {
        s.storeId = i.store?.id ?? '';
        s.storeLabel = i.store ? i.label : '';
      });
    },
  };
}

export function pathStep<S extends { storeId: string; path: string }>(): Step<S> {
  return {
    name: l10n.t('Path in the store'),
    describe: (s) => s.path,
    when: (s) => s.storeId !== '',
    async ask(s, ui) {
      const answer = await ui.input({
        prompt: l10n.t('Path inside the store (folder the files are written to)'),
        value: s.path,
        placeHolder: l10n.t('deliveries/2025'),
        validate: checkStorePath,
      });
      return outcome(answer, (v) => (s.path = v.trim()));
    },
  };
}

/** The use case every item must carry: free text, prefilled, empty means the default. */
export function usecaseStep<S extends { usecase: string }>(): Step<S> {
  return {
    name: l10n.t('Use case'),
    describe: (s) => usecaseOf(s.usecase),
    async ask(s, ui) {
      const answer = await ui.input({
        prompt: usecasePrompt(),
        value: s.usecase || DEFAULT_USECASE,
        validate: checkUsecase,
      });
      return outcome(answer, (v) => (s.usecase = usecaseOf(v)));
    },
  };
}
