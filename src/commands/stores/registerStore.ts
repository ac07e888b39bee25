/**
 * Register a cloud store: type → configs for that type → secrets in password boxes → labels,
 * checked here with the service's own rules before anything is sent. Secrets live only in
 * this function's memory: never in settings, logs, state or error text (a server message
 * that echoes one is redacted).
 */
import { STORE_RULES, type CreateStoreRequest, type Store, type StoreType } from '../../api';
import type { CommandServices } from '../services';
import { MultiStepInput, outcome, type Step } from '../../ui/multiStep';
import { describeError, showError } from '../../ui/showError';
import { clientFor, revealInView } from '../orders/common';
import { submitUntilAccepted } from '../../ui/submit';
import { checkRequiredValue, checkStoreName, formatLabels, parseLabels, STORE_TYPES, validateStoreRequest, redactSecrets } from './storeInput';

interface StoreState {
  type: StoreType | '';
  name: string;
  configs: Record<string, string>;
  secrets: Record<string, string>;
  labels: string;
}

const TYPE_DETAIL: Record<StoreType, string> = {
  S3: 'Amazon S3 bucket',
  GCS: 'Google Cloud Storage bucket',
  AZBLOB: 'Azure Blob Storage container',
};

/** What each config key means for each type: the service calls an Azure container its bucket. */
const CONFIG_PROMPT: Record<string, Record<StoreType, string>> = {
  bucket: { S3: 'S3 bucket name', GCS: 'GCS bucket name', AZBLOB: 'Azure Blob container name (the service calls it the bucket)' },
  region: { S3: 'S3 region, e.g. eu-west-1', GCS: 'GCS bucket location, e.g. europe-west4', AZBLOB: 'Azure region of the storage account, e.g. westeurope' },
  path_prefix: { S3: 'Folder prefix inside the bucket (optional)', GCS: 'Folder prefix inside the bucket (optional)', AZBLOB: 'Folder prefix inside the container (optional)' },
};

function configStep(key: string): Step<StoreState> {
  return {
    name: `Config: ${key}`,
    describe: (s) => s.configs[key],
    when: (s) => s.type !== '' && [...STORE_RULES[s.type].configs, ...STORE_RULES[s.type].optionalConfigs].includes(key),
    async ask(s, ui) {
      const required = s.type !== '' && STORE_RULES[s.type].configs.includes(key);
      const answer = await ui.input({
        prompt: s.type !== '' ? (CONFIG_PROMPT[key]?.[s.type] ?? `${s.type} ${key}`) : key,
        value: s.configs[key] ?? '',
        validate: (v) => (required ? checkRequiredValue(key, v) : undefined),
      });
      return outcome(answer, (v) => (s.configs[key] = v.trim()));
    },
  };
}

function secretStep(key: string): Step<StoreState> {
  return {
    name: `Secret: ${key}`,
    // Never shown back, only whether one was given.
    describe: (s) => (s.secrets[key] ? '(entered)' : '(missing)'),
    when: (s) => s.type !== '' && STORE_RULES[s.type].secrets.includes(key),
    async ask(s, ui) {
      const answer = await ui.input({
        prompt: `${s.type} secret ${key}${s.secrets[key] ? ' (leave as is to keep the one entered)' : ''}`,
        value: s.secrets[key] ?? '',
        password: true,
        validate: (v) => checkRequiredValue(key, v),
      });
      return outcome(answer, (v) => (s.secrets[key] = v.trim()));
    },
  };
}

export function storeSteps(): Step<StoreState>[] {
  const allConfigs = [...new Set(STORE_TYPES.flatMap((t) => [...STORE_RULES[t].configs, ...STORE_RULES[t].optionalConfigs]))];
  const allSecrets = [...new Set(STORE_TYPES.flatMap((t) => STORE_RULES[t].secrets))];
  return [
    {
      name: 'Type',
      describe: (s) => s.type,
      async ask(s, ui) {
        const answer = await ui.pick(STORE_TYPES.map((t) => ({ label: t, description: TYPE_DETAIL[t] })), { placeHolder: 'Kind of cloud store', activeLabel: s.type });
        return outcome(answer, (i) => (s.type = i.label as StoreType));
      },
    },
    {
      name: 'Name',
      describe: (s) => s.name,
      async ask(s, ui) {
        const answer = await ui.input({ prompt: 'Name of the store (unique in your workspace)', value: s.name, validate: checkStoreName });
        return outcome(answer, (v) => (s.name = v.trim()));
      },
    },
    ...allConfigs.map(configStep),
    ...allSecrets.map(secretStep),
    {
      name: 'Labels',
      describe: (s) => s.labels,
      async ask(s, ui) {
        const answer = await ui.input({
          prompt: 'Labels as key=value, separated by commas (optional)',
          value: s.labels,
          placeHolder: 'team=geo, env=prod',
          validate: (v) => {
            const r = parseLabels(v);
            return r.ok ? undefined : r.reason;
          },
        });
        return outcome(answer, (v) => (s.labels = v.trim()));
      },
    },
  ];
}

/** Only the keys of the chosen type travel (a type switched midway leaves no stale keys). */
export function storeRequest(s: StoreState): CreateStoreRequest {
  const type = s.type as StoreType;
  const rules = STORE_RULES[type] ?? { configs: [], optionalConfigs: [], secrets: [] };
  // An optional key left empty is not sent.
  const pick = (from: Record<string, string>, keys: readonly string[]): Record<string, string> =>
    Object.fromEntries(keys.filter((k) => from[k] !== undefined && from[k] !== '').map((k) => [k, from[k]]));
  const labels = parseLabels(s.labels);
  return {
    name: s.name,
    type,
    configs: pick(s.configs, [...rules.configs, ...rules.optionalConfigs]),
    secrets: pick(s.secrets, rules.secrets),
    labels: labels.ok ? labels.labels : {},
  };
}

export async function registerStore(services: CommandServices): Promise<Store | undefined> {
  const action = 'Register cloud store';
  const client = await clientFor(services, action);
  if (!client) return undefined;
  const state: StoreState = { type: '', name: '', configs: {}, secrets: {}, labels: '' };
  const wizard = new MultiStepInput(services.ui, 'Register Cloud Store', storeSteps(), state);
  if (!(await wizard.run())) return undefined;
  let req = storeRequest(state);
  const store = await submitUntilAccepted(services, {
    action,
    precheck: () => {
      req = storeRequest(state);
      const problems = validateStoreRequest(req);
      return problems.length ? `The store cannot be registered: ${problems.join(' ')}` : undefined;
    },
    send: () => client.stores.create(req),
    refused: (err) => {
      const text = redactSecrets(describeError(err), req.secrets);
      return err.status === 409 ? `The name "${req.name}" is already taken by another store: choose another name. (${text})` : `The service refused the store: ${text}`;
    },
    edit: () => wizard.editOne(),
    failed: async (err) => {
      // Pass the error itself (sign-in and retry offers) unless a secret had to be cut out of it.
      const text = redactSecrets(describeError(err), req.secrets);
      if (text === describeError(err)) return false;
      await showError(services, action, new Error(text));
      return true;
    },
  });
  if (!store) return undefined;
  services.log.info(`Registered ${store.type} store "${store.name}" (${store.id})`);
  await revealInView(services, 'stores', 'store', store.id);
  void services.ui.message('info', `Cloud store "${store.name}" registered${formatLabels(store.labels ?? {}) ? ` with labels ${formatLabels(store.labels)}` : ''}.`, {});
  return store;
}
