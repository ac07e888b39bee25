/**
 * Register a cloud store: type → configs for that type → secrets in password boxes → labels,
 * checked here with the service's own rules before anything is sent. Secrets live only in
 * this function's memory: never in settings, logs, state or error text (a server message
 * that echoes one is redacted).
 */
import { l10n } from 'vscode';
import { STORE_RULES, type CreateStoreRequest, type Store, type StoreType } from '../../api';
import type { CommandServices } from '../services';
import { MultiStepInput, outcome, type Step } from '../../ui/multiStep';
import { describeError, showError } from '../../ui/showError';
import { revealInView } from '../orders/common';
import { submitUntilAccepted } from '../../ui/submit';
import { checkRequiredValue, checkStoreName, formatLabels, parseLabels, STORE_TYPES, validateStoreRequest, redactSecrets } from './storeInput';

interface StoreState {
  type: StoreType | '';
  name: string;
  configs: Record<string, string>;
  secrets: Record<string, string>;
  labels: string;
}

function typeDetail(t: StoreType): string {
  switch (t) {
    case 'S3':
      return l10n.t('Amazon S3 bucket');
    case 'GCS':
      return l10n.t('Google Cloud Storage bucket');
    case 'AZBLOB':
      return l10n.t('Azure Blob Storage container');
  }
}

/** What each config key means for each type, in words (the service calls an Azure container its bucket). */
function configPrompt(key: string, t: StoreType): string {
  switch (key) {
    case 'bucket':
      return t === 'AZBLOB'
        ? l10n.t('Azure Blob container name (the service calls it the bucket)')
        : t === 'GCS'
          ? l10n.t('GCS bucket name')
          : l10n.t('S3 bucket name');
    case 'region':
      return t === 'AZBLOB'
        ? l10n.t('Azure region of the storage account, e.g. westeurope')
        : t === 'GCS'
          ? l10n.t('GCS bucket location, e.g. europe-west4')
          : l10n.t('S3 region, e.g. eu-west-1');
    case 'path_prefix':
      return t === 'AZBLOB'
        ? l10n.t('Folder prefix inside the container (optional), e.g. imagery/')
        : l10n.t('Folder prefix inside the bucket (optional), e.g. imagery/');
    default:
      return key;
  }
}

/** A secret's name in words; the service's key stays out of the prompt. */
export function secretLabel(key: string): string {
  switch (key) {
    case 'access_key_id':
      return l10n.t('Access key ID');
    case 'secret_access_key':
      return l10n.t('Secret access key');
    case 'project_id':
      return l10n.t('Google Cloud project ID');
    case 'service_account_credentials':
      return l10n.t("Service account key (the JSON key file's contents)");
    case 'account_name':
      return l10n.t('Storage account name');
    case 'tenant_id':
      return l10n.t('Tenant (directory) ID');
    case 'client_id':
      return l10n.t('Client (application) ID');
    case 'client_secret':
      return l10n.t('Client secret');
    default:
      return key;
  }
}

function configLabel(key: string): string {
  switch (key) {
    case 'bucket':
      return l10n.t('Bucket');
    case 'region':
      return l10n.t('Region');
    case 'path_prefix':
      return l10n.t('Folder prefix');
    default:
      return key;
  }
}

/** The most secrets any store type needs: the secret steps are slots, so the step total is the same for every type. */
const SECRET_SLOTS = Math.max(...STORE_TYPES.map((t) => STORE_RULES[t].secrets.length));

function configStep(key: string): Step<StoreState> {
  return {
    name: configLabel(key),
    describe: (s) => s.configs[key],
    when: (s) => s.type !== '' && [...STORE_RULES[s.type].configs, ...STORE_RULES[s.type].optionalConfigs].includes(key),
    async ask(s, ui) {
      const required = s.type !== '' && STORE_RULES[s.type].configs.includes(key);
      const answer = await ui.input({
        prompt: s.type !== '' ? configPrompt(key, s.type) : key,
        value: s.configs[key] ?? '',
        validate: (v) => (required ? checkRequiredValue(configLabel(key), v) : undefined),
      });
      return outcome(answer, (v) => (s.configs[key] = v.trim()));
    },
  };
}

/** The `slot`-th secret the chosen type needs (S3 needs two, Azure four). */
function secretStep(slot: number): Step<StoreState> {
  const keyOf = (s: StoreState): string | undefined => (s.type !== '' ? STORE_RULES[s.type].secrets[slot] : undefined);
  return {
    name: l10n.t('Secret {0}', slot + 1),
    // Never shown back, only whether one was given.
    describe: (s) => {
      const key = keyOf(s);
      return key ? `${secretLabel(key)}: ${s.secrets[key] ? l10n.t('(entered)') : l10n.t('(missing)')}` : undefined;
    },
    when: (s) => keyOf(s) !== undefined,
    async ask(s, ui) {
      const key = keyOf(s)!;
      const label = secretLabel(key);
      const answer = await ui.input({
        prompt: s.secrets[key]
          ? l10n.t('{0} for the {1} (write-only; leave as is to keep the one entered)', label, typeDetail(s.type as StoreType))
          : l10n.t('{0} for the {1} (write-only: the service never shows it again)', label, typeDetail(s.type as StoreType)),
        value: s.secrets[key] ?? '',
        password: true,
        validate: (v) => checkRequiredValue(label, v),
      });
      return outcome(answer, (v) => (s.secrets[key] = v.trim()));
    },
  };
}

/**
 * `takenNames` lists the names already in use (loaded once, when the name is first typed), so
 * a taken name is refused as it is typed rather than by the service at the end.
 */
export function storeSteps(takenNames: () => Promise<ReadonlySet<string>> = async () => new Set()): Step<StoreState>[] {
  const allConfigs = [...new Set(STORE_TYPES.flatMap((t) => [...STORE_RULES[t].configs, ...STORE_RULES[t].optionalConfigs]))];
  return [
    {
      name: l10n.t('Type'),
      describe: (s) => (s.type ? typeDetail(s.type) : ''),
      async ask(s, ui) {
        const items = STORE_TYPES.map((t) => ({ label: t, description: typeDetail(t) }));
        const answer = await ui.pick(items, { placeHolder: l10n.t('Kind of cloud store'), activeLabel: s.type });
        return outcome(answer, (i) => (s.type = i.label as StoreType));
      },
    },
    {
      name: l10n.t('Name'),
      describe: (s) => s.name,
      async ask(s, ui) {
        const answer = await ui.input({
          prompt: l10n.t('Name of the store (unique among your stores)'),
          value: s.name,
          validate: async (v) => {
            const problem = checkStoreName(v);
            if (problem) return problem;
            let taken: ReadonlySet<string>;
            try {
              taken = await takenNames();
            } catch {
              // Recovers from a list that cannot be read: the service still refuses a taken name (409).
              return undefined;
            }
            return taken.has(v.trim()) ? l10n.t('You already have a store named "{0}": choose another name.', v.trim()) : undefined;
          },
        });
        return outcome(answer, (v) => (s.name = v.trim()));
      },
    },
    ...allConfigs.map(configStep),
    ...Array.from({ length: SECRET_SLOTS }, (_, i) => secretStep(i)),
    {
      name: l10n.t('Labels'),
      describe: (s) => s.labels,
      async ask(s, ui) {
        const answer = await ui.input({
          prompt: l10n.t('Labels as key=value, separated by commas (optional)'),
          value: s.labels,
          placeHolder: l10n.t('e.g. team=geo, env=prod'),
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
  const action = l10n.t('Register cloud store');
  const client = await services.connection.getClient();
  const state: StoreState = { type: '', name: '', configs: {}, secrets: {}, labels: '' };
  let names: Promise<ReadonlySet<string>> | undefined;
  const takenNames = (): Promise<ReadonlySet<string>> => {
    names ??= client.stores.list().then((list) => new Set(list.map((st) => st.name)));
    // a failed read is tried again at the next keystroke rather than remembered
    names.catch(() => (names = undefined));
    return names;
  };
  const wizard = new MultiStepInput(services.ui, l10n.t('Register Cloud Store'), storeSteps(takenNames), state);
  if (!(await wizard.run())) return undefined;
  let req = storeRequest(state);
  const store = await submitUntilAccepted(services, {
    action,
    precheck: () => {
      req = storeRequest(state);
      const problems = validateStoreRequest(req);
      return problems.length ? l10n.t('The store cannot be registered: {0}', problems.join(' ')) : undefined;
    },
    send: () => client.stores.create(req),
    refused: (err) => {
      const text = redactSecrets(describeError(err), req.secrets);
      return err.status === 409
        ? l10n.t('The name "{0}" is already taken by another store: choose another name. ({1})', req.name, text)
        : l10n.t('The service refused the store: {0}', text);
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
  const labels = formatLabels(store.labels ?? {});
  void services.ui.message(
    'info',
    labels ? l10n.t('Cloud store "{0}" registered with labels {1}.', store.name, labels) : l10n.t('Cloud store "{0}" registered.', store.name),
    {},
  );
  return store;
}
