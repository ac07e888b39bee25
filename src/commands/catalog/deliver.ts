/**
 * Deliver catalog entries (or everything of order items) to a registered cloud store: pick a
 * store and a path, send one POST, then follow each delivery until SUCCESS or FAILED in a
 * cancellable notification (cancelling stops watching, not the delivery) and refresh Catalog.
 */
import vscode = require('vscode');
import { isCancellation, type Delivery, type DeliveryRequest, type Store } from '../../api';
import type { CommandServices } from '../services';
import { MultiStepInput } from '../../ui/multiStep';
import { describeError, showError } from '../../ui/showError';
import { clientFor, pathStep, storeStep } from '../orders/common';
import { submitUntilAccepted } from '../../ui/submit';
import { resolveTargets } from './askTargets';
import { describeTargets, targetBody } from './targets';

interface DeliverState {
  storeId: string;
  storeLabel: string;
  path: string;
}

/** Poll pacing: quick enough for a test that advances the sandbox clock, gentle on a real service. */
export const FOLLOW = { initialDelayMs: 300, maxDelayMs: 3_000, timeoutMs: 30 * 60_000 } as const;

export async function deliver(services: CommandServices, ...args: unknown[]): Promise<Delivery[] | undefined> {
  const action = 'Deliver to cloud store';
  const client = await clientFor(services, action);
  if (!client) return undefined;
  const targets = await resolveTargets(services, 'Deliver to Cloud Store', args);
  if (!targets) return undefined;
  let stores: Promise<Store[]> | undefined;
  const state: DeliverState = { storeId: '', storeLabel: '', path: '' };
  const wizard = new MultiStepInput(services.ui, `Deliver ${describeTargets(targets)}`, [storeStep<DeliverState>(() => (stores ??= client.stores.list()), false), pathStep<DeliverState>()], state);
  try {
    if (!(await wizard.run())) return undefined;
  } catch (err) {
    await showError(services, 'Loading cloud stores', err);
    return undefined;
  }
  const created = await submitUntilAccepted(services, {
    action,
    send: () => {
      const request: DeliveryRequest = { ...targetBody(targets), cloud_info: { config: state.storeId, path: state.path } };
      return client.deliveries.create({ deliveries: [request] });
    },
    refused: (err) => `The service refused the delivery: ${describeError(err)}`,
    edit: () => wizard.editOne(),
  });
  if (!created) return undefined;
  services.log.info(`Started ${created.length} deliver${created.length === 1 ? 'y' : 'ies'} to ${state.storeLabel}/${state.path}`);
  services.explorer.refresh('catalog');
  const final = await follow(services, created, state.storeLabel);
  services.explorer.refresh('catalog');
  return final;
}

async function follow(services: CommandServices, deliveries: Delivery[], storeLabel: string): Promise<Delivery[]> {
  const client = await services.connection.getClient();
  const latest = new Map(deliveries.map((d) => [d.delivery_id, d]));
  const done = (d: Delivery): boolean => d.status === 'SUCCESS' || d.status === 'FAILED';
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Delivering to ${storeLabel}`, cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        const report = (): void => {
          const all = [...latest.values()];
          const ok = all.filter((d) => d.status === 'SUCCESS').length;
          progress.report({ message: `${ok}/${all.length} done · ${all.map((d) => d.status).join(', ')}` });
        };
        report();
        await Promise.all(
          [...latest.values()]
            .filter((d) => !done(d))
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
    if (isCancellation(err)) {
      void services.ui.message('info', 'Stopped following the delivery; it continues on the service. Its status shows in the Catalog view.', {});
      return [...latest.values()];
    }
    await showError(services, 'Following the delivery', err);
    return [...latest.values()];
  }
  const all = [...latest.values()];
  const failed = all.filter((d) => d.status === 'FAILED');
  if (failed.length) {
    void services.ui.message('error', `${failed.length} of ${all.length} deliveries to ${storeLabel} failed (${failed.map((d) => d.catalog_id || d.delivery_id).join(', ')}).`, {});
  } else {
    void services.ui.message('info', `Delivered to ${storeLabel}: ${all.map((d) => d.target_path).filter(Boolean).join(', ') || `${all.length} entries`}.`, {});
  }
  return all;
}
