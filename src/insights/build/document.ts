import type { BlockSpec, InputValue, InsightRunRequest } from '../../api/records';
import { isRequired, type InputChoice } from './choices';
import { buildInputValue, type BuildResult } from './buildInput';
import { INSIGHT_FILE_SUFFIX } from '../../fileKinds';
export { INSIGHT_FILE_SUFFIX } from '../../fileKinds';

/** What a `*.insight.json` file holds: the run body without the project and estimate flag. */
export type InsightInputDocument = Pick<InsightRunRequest, 'name' | 'block' | 'input'>;

// Names become file names: keep them portable across file systems.
const UNSAFE_NAME = /[\\/:*?"<>|]/;
const hasControl = (s: string): boolean => [...s].some((ch) => ch.charCodeAt(0) < 0x20);

export function checkInsightName(name: string): string | undefined {
  const t = name.trim();
  if (t === '') return 'The insight needs a name.';
  if (t.length > 120) return 'The name is longer than 120 characters.';
  if (UNSAFE_NAME.test(t) || hasControl(t)) return 'The name cannot contain \\ / : * ? " < > | or control characters.';
  if (t === '.' || t === '..' || t.startsWith('.')) return 'The name cannot start with a dot.';
  return undefined;
}

export function insightFileName(name: string): string {
  return `${name.trim()}${INSIGHT_FILE_SUFFIX}`;
}

/**
 * Builds the whole file from a block spec and one choice per input definition, in the spec's
 * order. Every refusal names the input and the reason; the first one stops the build.
 */
export function buildInsightDocument(name: string, spec: BlockSpec, choices: ReadonlyMap<string, InputChoice>): BuildResult<InsightInputDocument> {
  const bad = checkInsightName(name);
  if (bad) return { ok: false, reason: bad };
  if (!Array.isArray(spec.inputs) || spec.inputs.length === 0) {
    return { ok: false, reason: `Block ${spec.name} ${spec.version} declares no inputs.` };
  }
  const seen = new Set<string>();
  for (const def of spec.inputs) {
    if (seen.has(def.name)) {
      return { ok: false, reason: `Block ${spec.name} ${spec.version} declares input "${def.name}" twice.` };
    }
    seen.add(def.name);
  }
  for (const key of choices.keys()) {
    if (!seen.has(key)) return { ok: false, reason: `Block ${spec.name} ${spec.version} has no input "${key}".` };
  }
  const input: InputValue[] = [];
  for (const def of spec.inputs) {
    const choice = choices.get(def.name);
    if (!choice) {
      if (isRequired(def)) return { ok: false, reason: `Input "${def.name}": it is required and nothing was chosen` };
      continue;
    }
    const built = buildInputValue(def, choice);
    if (!built.ok) return built;
    if (built.value) input.push(built.value);
  }
  return { ok: true, value: { name: name.trim(), block: { name: spec.name, version: spec.version }, input } };
}

export function serializeInsightDocument(doc: InsightInputDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
