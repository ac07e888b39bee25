// Settings a cloned repository can set: every number setting of the manifest, set to its
// extremes and beyond from the workspace's .vscode/settings.json (as a repository ships it)
// and from the user's settings. Workspace values of settings that decide limits, money or
// where data goes are ignored; the user's are held within the manifest's range. The Place
// Order confirmation shows the user's billing unit whatever the workspace says.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/commandIds';
import { configuredBasemaps } from '../../../src/panels/host';
import { EXTENSION_ID, useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { client, firstItem, runScripted, storedOrderCount } from './ordersSupport';
import { until } from '../support/until';

interface Declared {
  type?: string | string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  scope?: string;
  items?: Declared;
  properties?: Record<string, Declared>;
}

const MiB = 1024 * 1024;

function manifestSettings(): Record<string, Declared> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, 'the extension is not loaded');
  return (ext.packageJSON as { contributes: { configuration: { properties: Record<string, Declared> } } }).contributes.configuration.properties;
}

function workspaceFolder(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the integration workspace has no folder');
  return folder.uri;
}

let marker = 0;

/**
 * Writes the workspace's .vscode/settings.json as a repository would ship it, and waits until
 * the editor has read it (a window-scoped sentinel setting in the same file shows the new
 * value; application-scoped settings never show a workspace value).
 */
async function writeWorkspaceSettings(values: Record<string, unknown>): Promise<void> {
  const name = `sentinel-${++marker}`;
  const sentinel = [{ name, url: 'https://tiles.example/{z}/{x}/{y}.png', attribution: '' }];
  const file = vscode.Uri.joinPath(workspaceFolder(), '.vscode', 'settings.json');
  await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify({ ...values, 'eoImagery.map.basemaps': sentinel }, null, 2)));
  await until('the workspace settings file to be read', () => {
    const v = vscode.workspace.getConfiguration().inspect<{ name: string }[]>('eoImagery.map.basemaps')?.workspaceValue;
    return Array.isArray(v) && v[0]?.name === name;
  });
}

async function removeWorkspaceSettings(): Promise<void> {
  await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceFolder(), '.vscode'), { recursive: true }).then(undefined, () => undefined);
  await until('the workspace settings to go', () => vscode.workspace.getConfiguration().inspect('eoImagery.map.basemaps')?.workspaceValue === undefined);
}

async function setUser(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
  await until(
    `${key} = ${JSON.stringify(value)}`,
    () => JSON.stringify(vscode.workspace.getConfiguration().inspect(key)?.globalValue) === JSON.stringify(value),
  );
}

suite('settings: what a workspace can set, within the manifest ranges', function () {
  this.timeout(120_000);
  const env = useSandbox();

  /** The value the extension uses for each number setting, as it would send requests. */
  const effective: Record<string, () => number> = {
    'eoImagery.requestTimeoutSeconds': () => env.current.api.services.connection.settings.timeoutMs / 1000,
    'eoImagery.maxResponseMegabytes': () => env.current.api.services.connection.settings.maxResponseBytes / MiB,
  };

  teardown(async () => {
    await removeWorkspaceSettings();
    for (const key of [...Object.keys(effective), 'eoImagery.amounts.unit', 'eoImagery.map.basemaps']) await setUser(key, undefined);
  });

  test('every number setting of the manifest has a range, and settings of limits, money and data are user-only or restricted', () => {
    const all = manifestSettings();
    const numbers = Object.entries(all).filter(([, d]) => d.type === 'number' || d.type === 'integer');
    assert.deepEqual(numbers.map(([k]) => k).sort(), Object.keys(effective).sort(), 'every number setting is checked by this suite');
    for (const [key, d] of numbers) {
      assert.equal(typeof d.minimum, 'number', `${key} has a minimum`);
      assert.equal(typeof d.maximum, 'number', `${key} has a maximum`);
    }
    const restricted = ((
      vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } }
    ).capabilities.untrustedWorkspaces.restrictedConfigurations ?? []) as string[];
    for (const key of [
      'eoImagery.baseUrl',
      'eoImagery.authScheme',
      'eoImagery.requestTimeoutSeconds',
      'eoImagery.maxResponseMegabytes',
      'eoImagery.amounts.unit',
    ]) {
      assert.equal(all[key].scope, 'application', `${key} is a user setting`);
    }
    assert.ok(restricted.includes('eoImagery.map.basemaps'), 'basemaps are restricted in Restricted Mode');
  });

  test('number settings set from the workspace are ignored, at their extremes and beyond', async () => {
    const all = manifestSettings();
    for (const [key, read] of Object.entries(effective)) {
      const d = all[key];
      const dflt = d.default as number;
      for (const value of [d.minimum, d.maximum, (d.minimum ?? 0) - 1, (d.maximum ?? 0) + 1, 1e12, -1e12, 1e308, 0, 'twenty', null]) {
        await writeWorkspaceSettings({ [key]: value });
        assert.equal(read(), dflt, `${key} = ${JSON.stringify(value)} in the workspace`);
      }
    }
  });

  test("the user's own number settings are held within the manifest's range", async () => {
    const all = manifestSettings();
    for (const [key, read] of Object.entries(effective)) {
      const d = all[key];
      const lo = d.minimum as number;
      const hi = d.maximum as number;
      const cases: [unknown, number][] = [
        [lo, lo],
        [hi, hi],
        [(lo + hi) / 2, (lo + hi) / 2],
        [lo - 1, lo],
        [0, lo],
        [-1e12, lo],
        [hi + 1, hi],
        [1e12, hi],
        [1e308, hi],
        ['twenty', d.default as number],
      ];
      for (const [value, want] of cases) {
        await setUser(key, value);
        assert.equal(read(), want, `${key} = ${JSON.stringify(value)} in user settings`);
      }
    }
  });

  test('a basemap maxZoom is held within its range, and the map honours trusted workspace basemaps', async () => {
    const zoom = manifestSettings()['eoImagery.map.basemaps'].items?.properties?.maxZoom;
    assert.ok(zoom && typeof zoom.minimum === 'number' && typeof zoom.maximum === 'number');
    await setUser('eoImagery.map.basemaps', [
      { name: 'High', url: 'https://a.example/{z}/{x}/{y}.png', maxZoom: 1e9 },
      { name: 'Low', url: 'https://b.example/{z}/{x}/{y}.png', maxZoom: -5 },
    ]);
    assert.deepEqual(
      configuredBasemaps().map((b) => b.maxZoom),
      [zoom.maximum, zoom.minimum],
    );
    // This window is trusted: a workspace may still choose its basemaps (Restricted Mode may not).
    await writeWorkspaceSettings({});
    assert.match(configuredBasemaps()[0].name, /^sentinel-/);
  });

  test("the Place Order confirmation shows the user's billing unit, not the workspace's", async () => {
    const conn = env.current;
    await setUser('eoImagery.amounts.unit', 'EUR');
    await writeWorkspaceSettings({ 'eoImagery.amounts.unit': 'BTC' });
    const item = (await (await client(conn)).archives.search({ limit: 1 })).features[0];
    assert.ok(item, 'the sandbox archive is empty');
    const before = storedOrderCount(conn);
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Project/, choose: firstItem },
      { kind: 'input', match: /Name/, answer: 'Unit check' },
      { kind: 'input', match: /Use case/, answer: 'general' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
      { kind: 'cancel', match: /^Place this order\?/ },
    ]);
    await runScripted(conn, prompts, COMMANDS.orderArchiveItems, item);
    prompts.assertDone();
    assert.equal(storedOrderCount(conn), before, 'nothing was placed');
    const summary = prompts.seen.find((m) => m.kind === 'pick' && m.label.startsWith('Place this order?'));
    assert.ok(summary, 'the priced confirmation was shown');
    const shown = `${summary.label}\n${(summary.items ?? []).join('\n')}`;
    assert.match(shown, /\bEUR\b/, shown);
    assert.doesNotMatch(shown, /BTC/, shown);
  });
});
