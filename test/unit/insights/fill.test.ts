// fill() gives what @vscode/l10n's own formatting gives for the same message and arguments:
// positional placeholders filled, anything else in braces left as written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as l10n from '@vscode/l10n';
import { fill } from '../../../src/insights/validate/fill';

describe('fill, the validator message formatter', () => {
  const templates = [
    'plain text',
    'Input "{0}" has no "value".',
    'Block {0} {1} has no input "{2}" (inputs: {3}).',
    '{0} needs "asset_source" {id, type} (rule 5).',
    '{1} before {0}, {0} again, {}',
    'unclosed {0',
    '{ 0} and {00} and {10} and {-1} and {x}',
    '{{0}}',
    '{}{0}',
    '{}x}{1}',
    '{a{0}}{1}',
    '}{0}{',
    '',
  ];
  const argLists: (string | number)[][] = [[], ['a'], ['a', 'b'], ['α', 2, '{1}', 'd'], ['$&', '$1', 'x', 'y', 'z', 'w', 'v', 'u', 't', 's', 'eleventh']];
  it('matches @vscode/l10n for every template and argument list', () => {
    for (const t of templates) {
      for (const args of argLists) {
        assert.equal(fill(l10n.t(t), ...args), l10n.t(t, ...args), `${JSON.stringify(t)} with ${JSON.stringify(args)}`);
      }
    }
  });
});
