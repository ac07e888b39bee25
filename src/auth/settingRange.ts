/**
 * What the manifest declares of a number setting, and the value the extension uses. Pure (no
 * vscode): the settings layer reads the manifest and the configured value and hands both here.
 */

/** A setting's declaration in package.json (`contributes.configuration.properties`). */
export interface DeclaredSetting {
  type?: string | string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  scope?: string;
  items?: DeclaredSetting;
  properties?: Record<string, DeclaredSetting>;
}

/**
 * `value` when it is a finite number, brought within the declaration's minimum..maximum; the
 * declared default (or `fallback`) when it is not a number at all. VS Code shows out-of-range
 * values as warnings but still hands them to the extension: a workspace could otherwise set a
 * 100 GB body cap or a timeout that overflows the timer.
 */
export function clampToDeclared(value: unknown, declared: DeclaredSetting, fallback: number): number {
  const dflt = typeof declared.default === 'number' && Number.isFinite(declared.default) ? declared.default : fallback;
  const n = typeof value === 'number' && Number.isFinite(value) ? value : dflt;
  const lo = typeof declared.minimum === 'number' ? declared.minimum : -Infinity;
  const hi = typeof declared.maximum === 'number' ? declared.maximum : Infinity;
  return Math.min(hi, Math.max(lo, n));
}
