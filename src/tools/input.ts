/**
 * A tool's input, read field by field into a typed value or refused with every problem in
 * words ("missing field \"items\""). VS Code hands tools whatever the model wrote, so nothing
 * here trusts the schema. Pure: no vscode, no I/O.
 */
import * as l10n from '@vscode/l10n';
import { isObj } from '../api/shape';

export type Read<T> = { ok: true; value: T } | { ok: false; problems: string[] };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Collects the fields of one input and the problems found on the way. */
export class Fields {
  readonly problems: string[] = [];
  private readonly input: Record<string, unknown>;

  constructor(input: unknown) {
    this.input = isObj(input) ? input : {};
    if (input !== undefined && input !== null && !isObj(input)) this.problems.push(l10n.t('The input must be a JSON object.'));
  }

  private missing(name: string): void {
    this.problems.push(l10n.t('Missing field "{0}".', name));
  }

  private value(name: string, required: boolean): unknown {
    const v = this.input[name];
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

  /** The typed input, or every problem found. */
  done<T>(value: T): Read<T> {
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
