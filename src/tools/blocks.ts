/** Finding an insight block and its latest (or named) version by name, for the authoring tools. */
import { l10n } from 'vscode';
import type { Block, EoClient } from '../api';
import { sortVersions } from '../insights/specSource';
import type { Found } from './lookup';
import { closestNames, nameMatcher } from '../nameMatch';
import { quoted } from './text';

/** The insight blocks, one per name (the service lists one row per version). */
export async function insightBlocks(client: EoClient): Promise<Block[]> {
  const blocks = await client.blocks.list({ mode: 'insight' });
  const byName = new Map<string, Block>();
  for (const b of blocks.filter((x) => x.mode === undefined || x.mode === 'insight')) if (!byName.has(b.name)) byName.set(b.name, b);
  return [...byName.values()];
}

/** The block `wanted` (by name or display name) at `version`, or its latest version with a spec. */
export async function findBlock(client: EoClient, wanted: string, version?: string): Promise<Found<Block>> {
  const blocks = await insightBlocks(client);
  const named = nameMatcher(wanted);
  const block = blocks.find((b) => named(b.name) || named(b.display_name ?? ''));
  if (!block) {
    const names = closestNames(
      wanted,
      blocks.map((b) => b.name),
    );
    return {
      ok: false,
      reason: l10n.t('No insight block is named {0}. The closest names: {1}.', quoted(wanted), names.map((n) => quoted(n)).join(', ') || '—'),
    };
  }
  const versions = (await client.blocks.insights({ name: block.name })).filter((b) => Array.isArray(b.spec?.inputs));
  if (!versions.length) return { ok: false, reason: l10n.t('Block {0} has no version with a spec.', quoted(block.name)) };
  const order = sortVersions(versions.map((b) => b.spec.version));
  const pick = version ?? order[0];
  const found = versions.find((b) => b.spec.version === pick);
  if (!found)
    return { ok: false, reason: l10n.t('Block {0} has no version {1}; it has {2}.', quoted(block.name), quoted(pick), order.map((v) => quoted(v)).join(', ')) };
  return { ok: true, value: found };
}
