/**
 * The file's header: its `name`, the `block` it runs ({name, version}), and what the service
 * said of that block (found, unknown, unknown version, signed out, unavailable).
 */
import type { Node } from 'jsonc-parser';
import * as l10n from '@vscode/l10n';
import type { BlockSpec } from '../../api/records';
import { type Anchor, type Collector, keyOf, prop, replace } from './collect';
import type { QuickFix, SpecLookup } from './types';

/** The block reference's nodes, as far as the file has them. */
export interface BlockNodes {
  block?: Node;
  name?: Node;
  version?: Node;
}

export function checkName(c: Collector, root: Node, docStart: Anchor): void {
  const nameNode = prop(root, 'name');
  if (!nameNode) c.add('name-missing', 'error', docStart, l10n.t('The file has no "name" (the insight\'s name).'));
  else if (nameNode.type !== 'string' || String(nameNode.value).trim() === '') {
    c.add('name-missing', 'error', nameNode, l10n.t('"name" must be a non-empty string.'));
  }
}

export function checkBlock(c: Collector, root: Node, docStart: Anchor): BlockNodes {
  const blockNode = prop(root, 'block');
  const blockNameNode = prop(blockNode, 'name');
  const blockVersionNode = prop(blockNode, 'version');
  if (!blockNode) c.add('block-missing', 'error', docStart, l10n.t('The file has no "block" ({name, version}).'));
  else if (blockNode.type !== 'object') c.add('block-missing', 'error', blockNode, l10n.t('"block" must be an object {name, version}.'));
  else {
    if (blockNameNode?.type !== 'string') {
      c.add('block-name-missing', 'error', blockNameNode ?? keyOf(blockNode) ?? blockNode, l10n.t('"block.name" must be a string naming the block.'));
    }
    if (blockVersionNode?.type !== 'string') {
      c.add(
        'block-version-missing',
        'error',
        blockVersionNode ?? keyOf(blockNode) ?? blockNode,
        l10n.t('"block.version" must be a string (blocks are run by name and version).'),
      );
    }
  }
  return { block: blockNode, name: blockNameNode, version: blockVersionNode };
}

/**
 * The block's spec when the service has it; otherwise why not, said once at the block
 * reference, and undefined (the file's own structure is still checked).
 */
export function resolveSpec(c: Collector, lookup: SpecLookup | undefined, block: BlockNodes, docStart: Anchor): BlockSpec | undefined {
  const { name: blockNameNode, version: blockVersionNode } = block;
  if (!lookup || blockNameNode?.type !== 'string' || blockVersionNode?.type !== 'string') return undefined;
  const specAnchor = blockNameNode ?? block.block ?? docStart;
  switch (lookup.status) {
    case 'unknown-block':
      c.add(
        'block-unknown',
        'error',
        blockNameNode,
        lookup.like?.length
          ? l10n.t('The service has no insight block named "{0}". Did you mean {1}?', String(blockNameNode.value), lookup.like.map((n) => `"${n}"`).join(', '))
          : l10n.t('The service has no insight block named "{0}".', String(blockNameNode.value)),
        (lookup.like ?? []).map((n, i) => ({
          kind: 'edit',
          title: l10n.t('Use block "{0}"', n),
          edits: replace(blockNameNode, JSON.stringify(n)),
          preferred: i === 0,
        })),
      );
      return undefined;
    case 'unknown-version': {
      const fixes: QuickFix[] = lookup.versions.slice(0, 5).map((v, i) => ({
        kind: 'edit',
        title: l10n.t('Use version {0}', v),
        edits: replace(blockVersionNode, JSON.stringify(v)),
        preferred: i === 0,
      }));
      const message =
        lookup.versions.length > 0
          ? l10n.t('Block "{0}" has no version "{1}". Known versions: {2}.', lookup.name, String(blockVersionNode.value), lookup.versions.join(', '))
          : l10n.t('Block "{0}" has no version "{1}".', lookup.name, String(blockVersionNode.value));
      c.add('block-version-unknown', 'error', blockVersionNode, message, fixes);
      return undefined;
    }
    case 'signed-out':
      c.add('spec-needs-sign-in', 'info', specAnchor, l10n.t("Sign in to check this file against the block spec; only the file's own structure was checked."));
      return undefined;
    case 'restricted':
      c.add(
        'spec-restricted',
        'info',
        specAnchor,
        l10n.t(
          'Restricted Mode: this file was not checked against the block spec, which would ask the service. Trust the workspace, or run "Validate Insight Input Against Block Spec", to check it.',
        ),
      );
      return undefined;
    case 'unavailable':
      c.add(
        'spec-unavailable',
        'info',
        specAnchor,
        l10n.t("The block spec could not be fetched ({0}); only the file's own structure was checked.", lookup.reason),
      );
      return undefined;
    case 'found':
      return lookup.spec;
  }
}
