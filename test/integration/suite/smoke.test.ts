// The extension loads in a real VS Code: present, not activated at startup, activated by one of
// its commands, and every command the manifest contributes is registered. The command list is
// read from package.json so the test follows the manifest as it grows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'eo-imagery.eo-imagery';

// Mocha loads every suite file before running any test, and loading activates nothing, so
// this is the window's state before any suite (or this one) touched the extension.

interface Manifest {
  activationEvents?: string[];
  contributes?: { commands?: Array<{ command: string; title: string; category?: string }> };
}

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded in this VS Code`);
  return ext;
}

function manifestCommands(): string[] {
  const manifest = extension().packageJSON as Manifest;
  return (manifest.contributes?.commands ?? []).map((c) => c.command);
}

/** Resolves when `ext` is active, or rejects after `ms`. */
async function waitActive(ext: vscode.Extension<unknown>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ext.isActive) {
    if (Date.now() > deadline) throw new Error(`extension not active ${ms} ms after its command ran`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

suite('smoke: the extension in a real VS Code', () => {
  test('is installed with the expected id and manifest', () => {
    const ext = extension();
    const manifest = ext.packageJSON as Manifest & { name: string; publisher: string };
    assert.equal(`${manifest.publisher}.${manifest.name}`, EXTENSION_ID);
    assert.ok(manifestCommands().length > 0, 'the manifest contributes no commands');
  });

  test('never activates with "*"; at startup only once the workbench has finished (onStartupFinished, so the watcher resumes)', () => {
    const events = (extension().packageJSON as Manifest).activationEvents ?? [];
    assert.ok(!events.includes('*'), 'activationEvents contains "*"');
    // The watcher (src/watch) resumes following after a reload; activation makes no request
    // (checked by the watcher suite), so the only cost is activation itself, after startup.
    assert.ok(events.includes('onStartupFinished'), 'the watcher cannot resume after a reload');
    assert.ok(!events.some((e) => e === 'onStartup'), 'activationEvents delay the workbench');
  });

  test('activates when one of its commands runs', async function () {
    this.timeout(30_000);
    const ext = extension();
    // onStartupFinished may already have activated it (it races this suite's loading on a busy
    // machine), so what is checked is what makes a command activate it: VS Code from 1.74 on
    // turns every contributed command into an onCommand event, and the engine asks for that.
    const engine = /(\d+)\.(\d+)/.exec((ext.packageJSON as { engines: { vscode: string } }).engines.vscode);
    assert.ok(engine && (Number(engine[1]) > 1 || Number(engine[2]) >= 74), 'engines.vscode below 1.74: commands would need onCommand events');
    const commands = manifestCommands();
    // Prefer a command that does not prompt; a prompt (sign in) is dismissed below either way.
    const pick = commands.find((c) => /refresh/i.test(c)) ?? commands.find((c) => /showLog|openLog|output/i.test(c)) ?? commands[0];
    const running = Promise.resolve(vscode.commands.executeCommand(pick)).catch(() => undefined);
    await waitActive(ext, 20_000);
    // Close any input box or quick pick the command opened so it can finish.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await Promise.race([running, new Promise((r) => setTimeout(r, 2000))]);
    assert.equal(ext.isActive, true);
  });

  test('registers every command its manifest contributes', async () => {
    const ext = extension();
    if (!ext.isActive) await ext.activate();
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifestCommands().filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `commands in package.json but not registered: ${missing.join(', ')}`);
  });

  test('puts every command under the "EO Imagery" category', () => {
    const manifest = extension().packageJSON as Manifest;
    const wrong = (manifest.contributes?.commands ?? []).filter((c) => c.category !== 'EO Imagery').map((c) => c.command);
    assert.deepEqual(wrong, [], `commands outside the "EO Imagery" category: ${wrong.join(', ')}`);
  });
});
