import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { safeText, TEXT_LIMITS } from '../../src/safeText';

/**
 * The workbench's own link parser, copied from code-server 4.100.3 (vs/base/common/linkedText.ts,
 * `parseLinkedText`): what notifications, progress notifications and the quick input's messages
 * turn into clickable links (a `command:` one runs the command).
 */
const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const links = (text: string): string[] => [...text.matchAll(LINK)].map((m) => m[0]);
/** `$(name)`, which the status bar and quick input draw as an icon (vs/base/browser/ui/iconLabel). */
const ICON = /(?<!\\)\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/;

const HOSTILE = [
  '[x](command:workbench.action.reloadWindow)',
  'Lake [Mead](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D) 2024',
  '[[nested]](https://evil.example/) and [a](file:///etc/passwd "title")',
  '[x]\n(command:a) [y]\u200b(command:b) [z]\u202e(command:c)',
  'ok $(sync~spin) $(alert)',
  'ends with [x](command:',
];

describe('safe text: what the service, a link or a model wrote, for where it is shown', () => {
  it('a notification carries no link the workbench would parse, and reads as the text did', () => {
    for (const h of HOSTILE) {
      const s = safeText(h, 'notification');
      assert.deepEqual(links(s), [], s);
      assert.ok(!ICON.test(s), s);
      assert.ok(!s.includes('\\'), `no backslash a person would see: ${s}`);
      assert.ok(!/[\n\r\u200b\u202e]/.test(s), s);
    }
    assert.equal(safeText('[x](command:workbench.action.reloadWindow)', 'notification'), '[x] (command:workbench.action.reloadWindow)');
    assert.equal(safeText('Order item Lake Mead failed: no imagery.', 'notification'), 'Order item Lake Mead failed: no imagery.');
    // a break or an invisible character between ] and ( is dropped first, then the two are kept apart
    assert.equal(safeText('[y]\u200b(command:b)', 'notification'), '[y] (command:b)');
    assert.equal(safeText('[y]\n(command:b)', 'notification'), '[y] (command:b)');
  });

  it('random text of brackets, parentheses and schemes never forms a link', () => {
    const parts = ['[', ']', '(', ')', 'command:x', 'https://a.b', 'file:/c', ' ', '\n', '\u200b', 'a', '$', '"t"', '\\'];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: 2 + (next() % 14) }, () => parts[next() % parts.length]).join('');
      const s = safeText(text, 'notification');
      assert.deepEqual(links(s), [], JSON.stringify(text));
      assert.ok(!ICON.test(s), JSON.stringify(text));
      assert.equal(safeText(s, 'notification'), s, `applying it twice changes nothing: ${JSON.stringify(text)}`);
      assert.ok(safeText(text, 'notification', 12).length <= 12, JSON.stringify(text));
    }
  });

  it('a quick pick row or CodeLens value: no icon, one line, links left as the words they are', () => {
    assert.equal(safeText('$(pass-filled) Verified\n$(trash)', 'pick'), '$ (pass-filled) Verified $ (trash)');
    // the quick pick parses no links: brackets stay as written
    assert.equal(safeText('[x](command:y)', 'pick'), '[x](command:y)');
    assert.equal(safeText('$$((x)', 'pick'), '$$ ((x)');
    for (const text of ['$(a)', '$\u200b(a)', '$$(a)', ' $(a) ', '$\n(a)']) {
      const s = safeText(text, 'pick');
      assert.ok(!ICON.test(s), JSON.stringify(text));
      assert.equal(safeText(s, 'pick'), s);
    }
    assert.equal(safeText('y'.repeat(500), 'pick').length, TEXT_LIMITS.pick);
  });

  it('one line: line breaks become spaces, hidden and control characters go', () => {
    assert.equal(safeText('Lake\r\nMead\n\nSYSTEM: do this\tnow', 'line'), 'Lake Mead SYSTEM: do this now');
    assert.equal(safeText('a\u202eb\u2066c\u0000d\u001be\u007ff\ufeffg', 'line'), 'abcdefg');
    assert.equal(safeText(undefined, 'line'), '');
    assert.equal(safeText(42, 'line'), '42');
  });

  it('plain text of several lines keeps its own breaks but not hidden characters, and its end when cut', () => {
    assert.equal(safeText('Total: 3 USD\r\nItems:\n\n\n\n- Lake\u202e', 'lines'), 'Total: 3 USD\nItems:\n\n- Lake');
    const items = Array.from({ length: 400 }, (_, i) => `${i + 1}. Scene ${i + 1} · 12.50 EUR`).join('\n');
    const cutOne = safeText(`${items}\n\nTotal amount: 5,000.00 EUR`, 'lines');
    assert.ok(cutOne.length <= TEXT_LIMITS.lines, String(cutOne.length));
    assert.ok(cutOne.startsWith('1. Scene 1 · 12.50 EUR\n'));
    assert.ok(cutOne.endsWith('\n\nTotal amount: 5,000.00 EUR'), 'the total is kept');
    assert.ok(cutOne.includes('\n…\n'));
  });

  it('cuts to the bound with "…", never half a surrogate pair, however long the input', () => {
    const s = safeText('x'.repeat(10_000_000), 'notification');
    assert.equal(s.length, TEXT_LIMITS.notification);
    assert.ok(s.endsWith('…'));
    assert.equal(safeText('y'.repeat(500), 'line').length, TEXT_LIMITS.line);
    assert.equal(safeText('abcdef', 'line', 4), 'abc…');
    const emoji = safeText(`abc${'😀'.repeat(10)}`, 'line', 5);
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(emoji), JSON.stringify(emoji));
  });

  it('markdown: every punctuation character escaped, so nothing is syntax', () => {
    const md = safeText('**bold** [x](command:a) <img src=x> # head `code` https://evil.example/p?q=1 www.evil.example a@b.example $(sync)', 'markdown');
    // every ASCII punctuation character is preceded by a backslash that is not itself escaped
    for (let i = 0; i < md.length; i++) {
      if (!/[!-/:-@[-`{-~]/.test(md[i])) continue;
      if (md[i] === '\\' && i + 1 < md.length && /[!-/:-@[-`{-~]/.test(md[i + 1])) {
        i++;
        continue;
      }
      assert.fail(`unescaped ${md[i]} at ${i}: ${md}`);
    }
    // unescaped, it is the text a person sees: one line, the link and icon syntax broken apart
    assert.equal(
      md.replace(/\\([!-/:-@[-`{-~])/g, '$1'),
      '**bold** [x] (command:a) <img src=x> # head `code` https://evil.example/p?q=1 www.evil.example a@b.example $ (sync)',
    );
    assert.equal(safeText('line one\nline two', 'markdown'), 'line one line two');
  });
});
