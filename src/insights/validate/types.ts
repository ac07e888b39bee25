import type { BlockSpec } from '../../api/records';

export type Severity = 'error' | 'warning' | 'info';

export type DiagnosticCode =
  | 'document-not-object'
  | 'document-too-deep'
  | 'name-missing'
  | 'block-missing'
  | 'block-name-missing'
  | 'block-version-missing'
  | 'block-unknown'
  | 'block-version-unknown'
  | 'spec-needs-sign-in'
  | 'spec-unavailable'
  | 'spec-restricted'
  | 'input-missing'
  | 'input-entry-not-object'
  | 'input-name-missing'
  | 'input-duplicate'
  | 'input-unknown'
  | 'input-required-missing'
  | 'format-mismatch'
  | 'type-missing'
  | 'type-invalid'
  | 'type-mismatch'
  | 'value-not-string'
  | 'value-missing'
  | 'stac-url-not-string'
  | 'asset-source-missing'
  | 'asset-source-invalid'
  | 'asset-source-type'
  | 'raw-mosaic-without-stac-url'
  | 'model-output-without-value'
  | 'date-invalid'
  | 'number-invalid'
  | 'boolean-invalid';

/** A replacement of `length` characters at `offset` by `content` (offsets into the text). */
export interface TextEdit {
  offset: number;
  length: number;
  content: string;
}

/**
 * The checks give `title` as a getter: a large file has a fix or two for each of its thousands
 * of problems, and formatting every title up front was a tenth of validating it, while a light
 * bulb reads the titles of one line.
 */
export type QuickFix =
  /** `edits` is computed when the fix is asked for (some need the whole file re-parsed). */
  | { kind: 'edit'; title: string; edits: () => TextEdit[]; preferred?: boolean }
  /** Needs the person and the service: pick an AOI asset, then add `asset_source` for it. */
  | { kind: 'pick-asset-source'; title: string; inputIndex: number };

export interface InsightDiagnostic {
  code: DiagnosticCode;
  message: string;
  severity: Severity;
  offset: number;
  length: number;
  fixes: QuickFix[];
}

/** What the extension knows of the block the file names. */
export type SpecLookup =
  | { status: 'found'; spec: BlockSpec }
  /** `like`: the service's block names closest to `name` (a typo's did-you-mean), best first. */
  | { status: 'unknown-block'; name: string; like?: string[] }
  | { status: 'unknown-version'; name: string; versions: string[] }
  | { status: 'signed-out' }
  /** Restricted Mode: the spec was not asked for (opening a file sends no request). */
  | { status: 'restricted' }
  | { status: 'unavailable'; reason: string };

/** How inserted JSON is laid out; mirrors the editor's options. */
export interface LayoutOptions {
  tabSize: number;
  insertSpaces: boolean;
  eol?: string;
}
