/**
 * Deliver catalog entries (or everything of order items) to a registered cloud store: pick a
 * store and a path, send one POST, then follow each delivery until SUCCESS or FAILED in a
 * cancellable notification (cancelling stops watching, not the delivery) and refresh Catalog.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { isCancellation, type Delivery, type DeliveryRequest, type Store } from '../../api';
import type { CommandServices } from '../services';
import { MultiStepInput } from '../../ui/multiStep';
import { describeError, inStep, showError } from '../../ui/showError';
import { pathStep, storeStep } from '../orders/common';
import { submitUntilAccepted } from '../../ui/submit';
import { resolveTargets } from './askTargets';
import { describeTargets, targetBody, type GivenTargets, type Targets } from './targets';
import { enumLabel } from '../../format';
import { withProgress } from '../../ui/progress';

interface DeliverState {
  storeId: string;
  storeLabel: string;
  path: string;
}

/** Poll pacing: quick enough for a test that advances the sandbox clock, gentle on a real service. */
export const FOLLOW = { initialDelayMs: 300, maxDelayMs: 3_000, timeoutMs: 30 * 60_000 } as const;

/** `given`: what it was run on (`targetsOf`: rows, a selection, ids); none from the palette. */
export async function deliver(services: CommandServices, given: GivenTargets): Promise<Delivery[] | undefined> {
  const action = l10n.t('Deliver to cloud store');
  const client = await services.connection.getClient();
  const targets = await resolveTargets(services, client, l10n.t('Deliver to Cloud Store'), given);
  if (!targets) return undefined;
  let stores: Promise<Store[]> | undefined;
  const state: DeliverState = { storeId: '', storeLabel: '', path: '' };
  const wizard = new MultiStepInput(
    services.ui,
    l10n.t('Deliver {0}', describeTargets(l10n, targets)),
    [storeStep<DeliverState>(() => (stores ??= client.stores.list()), false), pathStep<DeliverState>()],
    state,
  );
  if (!(await inStep(l10n.t('Loading cloud stores'), () => wizard.run()))) return undefined;
  const created = await submitUntilAccepted(services, {
    action,
    send: () => {
      const request: DeliveryRequest = { ...targetBody(targets), cloud_info: { config: state.storeId, path: state.path } };
      return client.deliveries.create({ deliveries: [request] });
    },
    refused: (err) => l10n.t('The service refused the delivery: {0}', describeError(err)),
    edit: () => wizard.editOne(),
  });
  if (!created) return undefined;
  services.log.info(
    `Started ${created.length} deliver${created.length === 1 ? 'y' : 'ies'} of ${describeTargets(l10n, targets)} to ${state.storeLabel}/${state.path}`,
  );
  services.explorer.refresh('catalog');
  // The watcher takes over whatever this notification stops following (cancelled, reload).
  for (const d of created) services.watcher.follow('delivery', d.delivery_id, { held: true, record: d });
  const final = await follow(services, created, state.storeLabel, targets);
  for (const d of final) services.watcher.release('delivery', d.delivery_id, isDone(d));
  services.explorer.refresh('catalog');
  return final;
}

/** The name of the entry a delivery is for, when the person picked it by name. */
function nameOf(targets: Targets, d: Delivery): string | undefined {
  if (!('catalogIds' in targets) || !d.catalog_id) return undefined;
  const i = targets.catalogIds.indexOf(d.catalog_id);
  return i >= 0 ? targets.names?.[i] : undefined;
}

function isDone(d: Delivery): boolean {
  return d.status === 'SUCCESS' || d.status === 'FAILED';
}

async function follow(services: CommandServices, deliveries: Delivery[], storeLabel: string, targets: Targets): Promise<Delivery[]> {
  const client = await services.connection.getClient();
  const latest = new Map(deliveries.map((d) => [d.delivery_id, d]));
  try {
    await withProgress(
      { location: vscode.ProgressLocation.Notification, title: l10n.t('Delivering {0} to {1}', describeTargets(l10n, targets), storeLabel), cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        const report = (): void => {
          const all = [...latest.values()];
          const ok = all.filter((d) => d.status === 'SUCCESS').length;
          progress.report({ message: l10n.t('{0} of {1} done · {2}', ok, all.length, all.map((d) => enumLabel(d.status)).join(', ')) });
        };
        report();
        await Promise.all(
          [...latest.values()]
            .filter((d) => !isDone(d))
            .map((d) =>
              client.deliveries.waitUntilDone(d.delivery_id, {
                ...FOLLOW,
                signal: ac.signal,
                onProgress: (v) => {
                  latest.set(v.delivery_id, v);
                  report();
                },
              }),
            ),
        );
      },
    );
  } catch (err) {
    // Recovers: the deliveries exist and go on whatever happens here. Stopping to watch is
    // said as such; a failure to watch is shown; either way the command returns what it saw.
    if (isCancellation(err)) {
      void services.ui.message('info', l10n.t('Stopped following the delivery; it continues on the service. Its status shows in the Catalog view.'), {});
    } else await showError(services, l10n.t('Following the delivery'), err);
    return [...latest.values()];
  }
  const all = [...latest.values()];
  const failed = all.filter((d) => d.status === 'FAILED');
  if (failed.length) {
    const which = failed
      .map((d) => nameOf(targets, d) || d.target_path)
      .filter(Boolean)
      .join(', ');
    void services.ui.message(
      'error',
      which
        ? l10n.t('{0} of {1} deliveries to {2} failed ({3}). Their status shows in the Catalog view.', failed.length, all.length, storeLabel, which)
        : l10n.t('{0} of {1} deliveries to {2} failed. Their status shows in the Catalog view.', failed.length, all.length, storeLabel),
      {},
    );
  } else {
    void services.ui.message(
      'info',
      l10n.t(
        'Delivered to {0}: {1}.',
        storeLabel,
        all
          .map((d) => d.target_path)
          .filter(Boolean)
          .join(', ') || describeTargets(l10n, targets),
      ),
      {},
    );
  }
  return all;
}
