/**
 * A tool's input, read field by field into a typed value or refused with every problem in
 * words ("missing field \"items\""). VS Code hands tools whatever the model wrote, so nothing
 * here trusts the schema. A field the tool does not read is refused too, by name: a model that
 * adds `"confirmed": true` or `"skipConfirmation": true` must learn that it changes nothing,
 * rather than see the call go through as if it had. Pure: no vscode, no I/O.
 */
import * as l10n from '@vscode/l10n';
import { isObj } from '../api/shape';
import { quoted } from './text';

export type Read<T> = { ok: true; value: T } | { ok: false; problems: string[] };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Unknown fields named in one problem, at most. */
const MAX_NAMED = 10;
/** The longest field name quoted whole in a problem. */
const MAX_NAME = 60;

/** A field name the model wrote, as quoted data (it may hold quotes, line breaks, anything). */
const fieldName = (name: string): string => quoted(name, MAX_NAME);

/** Collects the fields of one input and the problems found on the way. */
export class Fields {
  readonly problems: string[] = [];
  private readonly input: Record<string, unknown>;
  /** Every field the tool asked for, present or not: the others are unknown to it. */
  private readonly asked = new Set<string>();

  constructor(input: unknown) {
    this.input = isObj(input) ? input : {};
    if (input !== undefined && input !== null && !isObj(input)) this.problems.push(l10n.t('The input must be a JSON object.'));
  }

  private missing(name: string): void {
    this.problems.push(l10n.t('Missing field "{0}".', name));
  }

  private value(name: string, required: boolean): unknown {
    this.asked.add(name);
    const v = Object.hasOwn(this.input, name) ? this.input[name] : undefined;
    if ((v === undefined || v === null || v === '') && required) this.missing(name);
    return v === null || v === '' ? undefined : v;
  }

  string(name: string, required: true, max?: number): string;
  string(name: string, required?: false, max?: number): string | undefined;
  string(name: string, required = false, max = 500): string | undefined {
    const v = this.value(name, required);
    if (v === undefined) return required ? '' : undefined;
    if (typeof v !== 'string') {
      this.problems.push(l10n.t('Field "{0}" must be text.', name));
      return required ? '' : undefined;
    }
    const t = v.trim();
    if (t.length > max) this.problems.push(l10n.t('Field "{0}" is longer than {1} characters.', name, max));
    return t;
  }

  number(name: string, min: number, max: number): number | undefined {
    const v = this.value(name, false);
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      this.problems.push(l10n.t('Field "{0}" must be a number from {1} to {2}.', name, min, max));
      return undefined;
    }
    return v;
  }

  /** A 1-based page number; 1 when absent. */
  page(): number {
    return this.number('page', 1, 10_000) ?? 1;
  }

  /** `YYYY-MM-DD`. */
  date(name: string): string | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) {
      this.problems.push(l10n.t('Field "{0}" must be a date written YYYY-MM-DD, not "{1}".', name, v.slice(0, 40)));
      return undefined;
    }
    return v;
  }

  strings(name: string, required: boolean, maxItems = 50): string[] {
    const v = this.value(name, required);
    if (v === undefined) return [];
    const list = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || x.trim() === '')) {
      this.problems.push(l10n.t('Field "{0}" must be a list of text values.', name));
      return [];
    }
    if (list.length > maxItems) this.problems.push(l10n.t('Field "{0}" holds more than {1} values.', name, maxItems));
    if (required && list.length === 0) this.missing(name);
    return (list as string[]).map((s) => s.trim());
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) {
      this.problems.push(l10n.t('Field "{0}" must be one of {1}.', name, values.map((x) => `"${x}"`).join(', ')));
      return undefined;
    }
    return v as T;
  }

  boolean(name: string): boolean | undefined {
    const v = this.value(name, false);
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') {
      this.problems.push(l10n.t('Field "{0}" must be true or false.', name));
      return undefined;
    }
    return v;
  }

  /** `[west, south, east, north]` in degrees. */
  bbox(name: string): [number, number, number, number] | undefined {
    const v = this.value(name, false);
    if (v === undefined) return undefined;
    const ok =
      Array.isArray(v) &&
      v.length === 4 &&
      v.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
      Math.abs(v[0] as number) <= 180 &&
      Math.abs(v[2] as number) <= 180 &&
      (v[1] as number) >= -90 &&
      (v[3] as number) <= 90 &&
      (v[1] as number) < (v[3] as number);
    if (!ok) {
      this.problems.push(l10n.t('Field "{0}" must be [west, south, east, north] in degrees (south below north).', name));
      return undefined;
    }
    return v as [number, number, number, number];
  }

  /** Any JSON value, checked by the caller (a GeoJSON geometry, a map of values). */
  raw(name: string): unknown {
    return this.value(name, false);
  }

  /** The typed input, or every problem found, fields the tool did not ask for included. */
  done<T>(value: T): Read<T> {
    const unknown = Object.keys(this.input).filter((k) => !this.asked.has(k));
    if (unknown.length > 0) {
      const named = unknown.slice(0, MAX_NAMED).map(fieldName).join(', ');
      const more = unknown.length > MAX_NAMED ? l10n.t(' and {0} more', unknown.length - MAX_NAMED) : '';
      const takes = this.asked.size > 0 ? l10n.t('The fields are {0}.', [...this.asked].map(fieldName).join(', ')) : l10n.t('It takes no fields.');
      this.problems.push(
        unknown.length === 1
          ? l10n.t('Unknown field {0}: this tool does not take it, and it changes nothing. {1}', named, takes)
          : l10n.t('Unknown fields {0}{1}: this tool does not take them, and they change nothing. {2}', named, more, takes),
      );
    }
    return this.problems.length ? { ok: false, problems: [...this.problems] } : { ok: true, value };
  }
}

/** `collection/item-id` references; the problems name the entries that are not. */
export function itemRefs(f: Fields, name: string): { collection: string; id: string }[] {
  const refs: { collection: string; id: string }[] = [];
  for (const s of f.strings(name, true)) {
    const slash = s.indexOf('/');
    if (slash <= 0 || slash === s.length - 1) f.problems.push(l10n.t('"{0}" in "{1}" is not collection/item-id.', s.slice(0, 80), name));
    else refs.push({ collection: s.slice(0, slash), id: s.slice(slash + 1) });
  }
  return refs;
}
