// "Export Timelapse…" in a real extension host and map webview: from an AOI row (Port of
// Rotterdam, 4 dated mosaics on the sandbox host; the sandbox draws each tile in this very
// process, so fewer dates keep the suite within minutes) through the format, size and rate quick picks and the save
// dialog to a GIF on disk, decoded here with omggif: one frame per date, the chosen size, the
// delay of the chosen rate, the date label changing between frames. Then from the palette with
// the time slider open: its dates, as a WebM.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GifReader } from 'omggif';
import type { Aoi } from '../../../src/api/records';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { client, runScripted } from './ordersSupport';
import type { TimelapseResult } from '../../../src/panels/imagery/timelapseMessages';

type Exported = { target: vscode.Uri; result: TimelapseResult } | undefined;

suite('Export Timelapse', () => {
  const sb = useSandbox();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-timelapse-'));
  let aoi: Aoi | undefined;

  suiteSetup(async () => {
    const c = await client(sb.current);
    for await (const a of c.aois.iterate({}, { pageSize: 100 })) if (a.name === 'Port of Rotterdam') aoi = a;
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('an AOI row → GIF, 480 × 480 at 5 frames per second → one frame per date on disk', async function () {
    this.timeout(300_000);
    assert.ok(aoi, 'the AOI is seeded');
    const target = vscode.Uri.file(path.join(tmp, 'fields.gif'));
    let suggested: string | undefined;
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Export Timelapse: format/, choose: 'Animated GIF' },
      { kind: 'pick', match: /Export Timelapse: frame size/, choose: '480 × 480 pixels' },
      { kind: 'pick', match: /Export Timelapse: frame rate/, choose: '5 frames per second' },
      {
        kind: 'saveDialog',
        match: /Export Timelapse/,
        answer: (s) => {
          suggested = s ? path.basename(s.fsPath) : undefined;
          return target;
        },
      },
    ]);
    const out = await runScripted<Exported>(sb.current, prompts, 'eoImagery.exportTimelapse', { kind: 'aoi', record: aoi });
    prompts.assertDone();
    assert.ok(out, 'the timelapse was written');
    const { result } = out;
    assert.equal(result.dates.length + result.skipped.length, 4, 'every mosaic date is drawn or named');
    assert.deepEqual(result.skipped, [], 'every date of the sandbox AOI can be read');
    assert.equal(suggested, `Port of Rotterdam ${result.dates[0]} to ${result.dates[3]} timelapse.gif`);

    const gif = new GifReader(new Uint8Array(fs.readFileSync(target.fsPath)));
    assert.equal(gif.numFrames(), 4, 'one frame per date');
    assert.equal(gif.width, 480);
    assert.equal(gif.height, 480);
    for (let i = 0; i < gif.numFrames(); i++) assert.equal(gif.frameInfo(i).delay, 20, '5 frames per second: 20 hundredths of a second');
    const frame = (i: number) => {
      const px = new Uint8Array(480 * 480 * 4);
      gif.decodeAndBlitFrameRGBA(i, px);
      return px;
    };
    // the label (bottom left) differs between consecutive dates; the imagery changes with the season
    const [a, b] = [frame(0), frame(1)];
    const differs = (x0: number, y0: number, x1: number, y1: number) => {
      let n = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) for (let k = 0; k < 3; k++) if (a[(y * 480 + x) * 4 + k] !== b[(y * 480 + x) * 4 + k]) n++;
      return n;
    };
    assert.ok(differs(0, 400, 240, 480) > 50, 'the date label changes');
    assert.ok(differs(120, 120, 360, 360) > 1000, 'the imagery changes between dates');
    assert.deepEqual(
      prompts.messages.filter((m) => m.severity !== 'info'),
      [],
    );
    assert.match(prompts.messages.at(-1)?.text ?? '', /4 frames, 480 × 480 pixels, 5 frames per second/);
    // One is said in the singular.
    const rates = prompts.seen.find((p) => /frame rate/.test(p.label))?.items ?? [];
    assert.ok(rates.includes('1 frame per second') && !rates.some((r) => /^1 frames/.test(r)), rates.join(', '));
  });

  test("the palette with the time slider open → the slider's dates as WebM", async function () {
    this.timeout(300_000);
    assert.ok(aoi);
    await vscode.commands.executeCommand('eoImagery.stepThroughTime', { kind: 'aoi', record: aoi });
    const target = vscode.Uri.file(path.join(tmp, 'slider.webm'));
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /format/, choose: 'WebM video' },
      { kind: 'pick', match: /frame size/, choose: '480 × 480 pixels' },
      { kind: 'pick', match: /frame rate/, choose: '10 frames per second' },
      { kind: 'saveDialog', match: /Export Timelapse/, answer: target },
    ]);
    // no AOI asked: the map's messages arrive in order, so the slider is open when it is asked
    const out = await runScripted<Exported>(sb.current, prompts, 'eoImagery.exportTimelapse');
    prompts.assertDone();
    assert.ok(out);
    assert.equal(out.result.dates.length, 4);
    assert.match(out.result.codec ?? '', /^vp[89]$/);
    const bytes = fs.readFileSync(target.fsPath);
    assert.deepEqual([...bytes.subarray(0, 4)], [0x1a, 0x45, 0xdf, 0xa3], 'an EBML (WebM) file');
    assert.ok(bytes.includes(Buffer.from('webm')), 'its DocType is webm');
  });
});
