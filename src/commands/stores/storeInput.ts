/**
 * Client-side checks of a cloud store registration, with the same rules the service applies
 * (docs/service-interface.md, `STORE_RULES`): every config and secret key of the type present and
 * non-empty. Messages name keys, never secret values. Pure: no `vscode`.
 */
import { STORE_RULES, type CreateStoreRequest, type StoreType } from '../../api/records';

export const STORE_TYPES = Object.keys(STORE_RULES) as StoreType[];

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,62}$/;
const LABEL_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/;

export function isStoreType(v: string): v is StoreType {
  return (STORE_TYPES as string[]).includes(v);
}

export function checkStoreName(name: string): string | undefined {
  const t = name.trim();
  if (t === '') return 'Enter a name for the store.';
  if (!NAME.test(t)) return 'Use up to 63 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.';
  return undefined;
}

/** Per-key check while typing a config or secret. */
export function checkRequiredValue(key: string, value: string): string | undefined {
  return value.trim() === '' ? `${key} is required.` : undefined;
}

/**
 * Labels typed as `key=value, key=value`; an empty text is no labels.
 * Returns the map or the reason it cannot be read.
 */
export function parseLabels(text: string): { ok: true; labels: Record<string, string> } | { ok: false; reason: string } {
  const labels: Record<string, string> = {};
  const t = text.trim();
  if (t === '') return { ok: true, labels };
  for (const part of t.split(',')) {
    const p = part.trim();
    if (p === '') continue;
    const eq = p.indexOf('=');
    if (eq <= 0) return { ok: false, reason: `"${p}" is not key=value.` };
    const key = p.slice(0, eq).trim();
    const value = p.slice(eq + 1).trim();
    if (!LABEL_KEY.test(key)) return { ok: false, reason: `Label key "${key}" may use letters, digits, dots, dashes, underscores and slashes.` };
    if (key in labels) return { ok: false, reason: `Label "${key}" is given twice.` };
    labels[key] = value;
  }
  return { ok: true, labels };
}

export function formatLabels(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/**
 * Every problem with a whole request, the same list the service would send back: missing
 * configs and secrets by key, unknown type, bad name. Empty when the request may be sent.
 */
export function validateStoreRequest(req: CreateStoreRequest): string[] {
  const problems: string[] = [];
  const nameProblem = checkStoreName(req.name);
  if (nameProblem) problems.push(nameProblem);
  if (!isStoreType(req.type)) {
    problems.push(`Unknown store type "${String(req.type)}"; use ${STORE_TYPES.join(', ')}.`);
    return problems;
  }
  const rules = STORE_RULES[req.type];
  const missingConfigs = rules.configs.filter((k) => !nonEmpty(req.configs[k]));
  const missingSecrets = rules.secrets.filter((k) => !nonEmpty(req.secrets[k]));
  if (missingConfigs.length) problems.push(`Missing ${req.type} config: ${missingConfigs.join(', ')}.`);
  if (missingSecrets.length) problems.push(`Missing ${req.type} secret: ${missingSecrets.join(', ')}.`);
  return problems;
}

function nonEmpty(v: unknown): boolean {
  return typeof v === 'string' && v.trim() !== '';
}

/**
 * Removes every secret value from a text before it is shown or logged: a server that echoes
 * a secret in an error must not get it onto the screen.
 */
export function redactSecrets(text: string, secrets: Record<string, string>): string {
  let out = text;
  for (const v of Object.values(secrets)) {
    if (v && v.length >= 4) out = out.split(v).join('•••');
  }
  return out;
}
