// Every file name the extension proposes is cut by UTF-8 bytes (file systems count bytes, 255
// at most) and is never a Windows device name: the shared module and the places that use it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileNameFor, preferredName } from '../../src/commands/catalog/downloadFile';
import { downloadFileName } from '../../src/explorer/labels';
import { MAX_NAME_BYTES, clipBytes, isWindowsDeviceName, safeFileName, safeName, withCompoundSuffix } from '../../src/fileNames';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const japanese = '東京湾の衛星画像'.repeat(30); // 240 characters, 720 bytes
const emoji = '🛰️'.repeat(100);

test('long non-ASCII names are cut by bytes, never inside a character, keeping the extension', () => {
  for (const stem of [japanese, emoji, 'Ä'.repeat(300), 'a'.repeat(400)]) {
    const name = safeFileName(stem, '.tif');
    assert.ok(bytes(name) <= MAX_NAME_BYTES - 16, `${bytes(name)} bytes`);
    assert.ok(name.endsWith('.tif'));
    assert.ok(!name.includes('\uFFFD'));
    assert.equal(Buffer.from(name, 'utf8').toString('utf8'), name);
  }
  assert.equal(clipBytes('aé', 2), 'a', 'é is two bytes: not cut in half');
});

test('Windows device names are refused, with or without an extension, in any case', () => {
  for (const n of ['CON', 'nul.txt', 'Com1.tif', 'lpt9.tar.gz', 'AUX', 'prn.zip', 'conin$']) assert.ok(isWindowsDeviceName(n), n);
  for (const n of ['console.txt', 'nullify', 'com10.tif', 'aux-data.csv']) assert.ok(!isWindowsDeviceName(n), n);
  assert.equal(safeFileName('nul', '.tif'), '_nul.tif');
  assert.equal(safeName('COM1.zip'), '_COM1.zip');
  assert.equal(safeFileName('  ..hidden. ', '.zip'), 'hidden.zip', 'no leading dots, no trailing dots or spaces');
});

test('proposed names go through it: download names, server names', () => {
  const names = [
    downloadFileName([japanese, '2024-05-01'], '.zip'),
    preferredName(japanese, 'scene.tar.gz'),
    fileNameFor(`attachment; filename*=UTF-8''${encodeURIComponent(japanese)}.zip`, new URL('https://x.example/d'), 'f.zip'),
  ];
  for (const n of names) assert.ok(bytes(n) <= MAX_NAME_BYTES, `${bytes(n)} bytes: ${n.slice(0, 20)}…`);
  assert.equal(downloadFileName(['con'], '.zip'), '_con.zip');
});

test('a compound suffix ends the name exactly once, whatever the save dialog handed back', () => {
  const cases: [string, string][] = [
    // What VS Code's own dialog returns for a name typed or proposed with the suffix and a
    // filter of `eosearch.json`: it compares only the last dot and appends the whole filter.
    ['/w/alps.eosearch.json.eosearch.json', '/w/alps.eosearch.json'],
    ['/w/alps.eosearch.json', '/w/alps.eosearch.json'],
    ['/w/alps', '/w/alps.eosearch.json'],
    ['/w/alps.json', '/w/alps.eosearch.json'],
    ['/w/alps.eosearch', '/w/alps.eosearch.json'],
    ['/w/alps.EOSEARCH.JSON', '/w/alps.eosearch.json'],
    ['/w/alps.v2', '/w/alps.v2.eosearch.json'],
    ['/w/.eosearch.json', '/w/untitled.eosearch.json'],
    ['/w.json/alps', '/w.json/alps.eosearch.json'],
  ];
  for (const [given, want] of cases) assert.equal(withCompoundSuffix(given, '.eosearch.json'), want, given);
  assert.equal(withCompoundSuffix('/w/view.eoview.json.eoview.json', '.eoview.json'), '/w/view.eoview.json');
  assert.equal(withCompoundSuffix('/w/a.insight.json.json', '.insight.json'), '/w/a.insight.json');
});
