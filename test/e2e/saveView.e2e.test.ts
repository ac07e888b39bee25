// "Save View to GeoTIFF…" as a person uses it in code-server, signed in to the sandbox: Archive
// → an item → "Show Imagery"; "Save View As" typed in the palette lists Save View As… first; then
// the palette's "EO Imagery: Save View to GeoTIFF…" → the bands
// (as preselected) → the resolution when there is a choice → code-server's save
// dialog with the suggested name → progress, then "Saved …". The sandbox's files are tiled and
// uncompressed, so the extension host reads and writes this clip itself (the map only plans
// it). GDAL reads the file back and compares every pixel with the scene's own values, read
// over HTTP from the sandbox. Screenshots: test-results/screenshots/imagery-save-view.png,
// palette-save-view-as.png.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { api, clearArchiveItem, contextMenu, imageryRowSettled, watchWebviewConsole, webviewFrame } from './webviews';
import { extensionLogText, paletteRows, runCommand, waitForNotification, waitForQuickInput } from './widgets';
import { assertNoWebviewErrors, expandRow, openEoContainer, screenshot, soleView, withSandboxWorkbench } from './workbench';

/** GDAL's comparison of the clip with the source window its georeferencing names, band by band (by description). */
const COMPARE = `
import json, sys
from osgeo import gdal
gdal.UseExceptions()
clip = gdal.Open(sys.argv[1]); src = gdal.Open('/vsicurl/' + sys.argv[2])
cg, sg = clip.GetGeoTransform(), src.GetGeoTransform()
# the level the clip was saved at: full resolution, or the overview of its pixel size
factor = round(cg[1] / sg[1])
x0, y0 = round((cg[0] - sg[0]) / cg[1]), round((cg[3] - sg[3]) / cg[5])
def level(band):
    if factor == 1:
        return band
    return next(o for o in (band.GetOverview(i) for i in range(band.GetOverviewCount())) if round(src.RasterXSize / o.XSize) == factor)
names = [src.GetRasterBand(i + 1).GetDescription() for i in range(src.RasterCount)]
out = {'window': [x0, y0, clip.RasterXSize, clip.RasterYSize], 'factor': factor, 'bands': [], 'differ': 0, 'nonzero': 0}
for b in range(clip.RasterCount):
    band = clip.GetRasterBand(b + 1)
    name = band.GetDescription()
    out['bands'].append(name)
    a = band.ReadAsArray()
    s = level(src.GetRasterBand(names.index(name) + 1)).ReadAsArray(x0, y0, clip.RasterXSize, clip.RasterYSize)
    out['differ'] += int((a != s).sum())
    out['nonzero'] += int((a != 0).sum())
print(json.dumps(out))
`;

test('save the view of an archive scene as a GeoTIFF from the palette; GDAL reads the scene’s values', { timeout: 600_000 }, async () => {
  await withSandboxWorkbench('saveView', {}, async (wb) => {
    const { page, base, token, folder, userDataDir } = wb;
    const webviewConsole = watchWebviewConsole(page);
    await page.setViewportSize({ width: 1400, height: 860 });
    await openEoContainer(page);
    await soleView(page, 'Archive');
    // the clearest of the first items that is not the 1.3 GB full-size scene
    const { collection: c, itemId } = await clearArchiveItem(base, token, { smallOnly: true });
    const item = await api<{ assets: Record<string, { href: string }> }>(base, token, `/v0/archives/collections/${c.id}/items/${itemId}`);
    const dataUrl = Object.values(item.assets)
      .map((a) => a.href)
      .find((h) => /\/data\.tif$/.test(h));
    assert.ok(dataUrl, 'the item has a data asset');
    await expandRow(page, 'Archive', c.title || c.id, itemId);
    await contextMenu(page, 'Archive', itemId, 'Show Imagery');
    const map = await webviewFrame(page, 'eoMap');
    const scene = await imageryRowSettled(map, `archive:${c.id}/${itemId}`);
    assert.equal(scene.state, 'ready', scene.text);

    // "Save View As" typed in the palette: the view file's Save View As… is the first row, and
    // the GeoTIFF and PNG saves, named apart ("to GeoTIFF"), are not listed above it
    const rows = await paletteRows(page, 'Save View As', 'EO Imagery: Save View As…', () => screenshot(page, 'palette-save-view-as'));
    assert.match(rows[0] ?? '', /^EO Imagery: Save View As…/, `the rows, top first: ${rows.join(' | ')}`);
    // and the GeoTIFF save is found by its format
    const byFormat = await paletteRows(page, 'GeoTIFF', 'EO Imagery: Save View to GeoTIFF…');
    assert.ok(
      byFormat.some((r) => r.startsWith('EO Imagery: Save View to GeoTIFF…')),
      byFormat.join(' | '),
    );
    await runCommand(page, 'EO Imagery: Save View to GeoTIFF');
    // the bands the layer draws are preselected: Enter keeps them
    const bands = await waitForQuickInput(page, /Save View to GeoTIFF: bands/);
    await bands.press('Enter');
    // then a choice of resolutions when the view spans more than one level (Enter: the one drawn),
    // and code-server's save dialog, which fills in the suggested path just after it opens
    const saveBox = await waitForQuickInput(page, /Save View to GeoTIFF/);
    let suggested = '';
    for (let i = 0; i < 300 && !/\.tif$/.test(suggested); i++) {
      const title = await page.locator('.quick-input-widget .quick-input-title').first().textContent();
      if (/resolution/.test(title ?? '')) {
        await saveBox.press('Enter');
        await page.waitForTimeout(300);
        continue;
      }
      suggested = await saveBox.inputValue();
      if (!/\.tif$/.test(suggested)) await page.waitForTimeout(100);
    }
    assert.match(path.basename(suggested), / clip\.tif$/);
    assert.doesNotMatch(path.basename(suggested), new RegExp(itemId), 'the name is the scene’s, not its id');
    await saveBox.press('Enter');

    await waitForNotification(page, /Saved .+ clip\.tif \(\d+ × \d+ pixels\)\./, 300_000);
    await screenshot(page, 'imagery-save-view');
    const file = path.join(folder, path.basename(suggested));
    assert.ok(fs.existsSync(file), file);
    const got = JSON.parse(
      execFileSync('/usr/bin/python3', ['-c', COMPARE, file, dataUrl], {
        encoding: 'utf8',
        env: {
          ...process.env,
          GDAL_HTTP_HEADERS: `Authorization: Bearer ${token}`,
          CPL_VSIL_CURL_ALLOWED_EXTENSIONS: '.tif',
          GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR',
        },
      }),
    ) as { window: number[]; bands: string[]; differ: number; nonzero: number };
    // the bands preselected in the picker, each found by name in the scene (the script fails on any other)
    assert.ok(got.bands.includes('B04') && got.bands.includes('B03') && got.bands.includes('B02'), `bands ${got.bands.join(', ')}`);
    assert.ok(got.nonzero > 1000, `the clip holds the scene, not no-data: ${JSON.stringify(got)}`);
    assert.equal(got.differ, 0, `every pixel is the scene's: ${JSON.stringify(got)}`);
    // the extension's own account of it: the window's tiles read by ranges, not the file
    const line = /saveView: wrote geotiff (\d+)×(\d+) \(\d+ bytes, read (\d+) of tiles (\d+)\)/.exec(extensionLogText(userDataDir));
    assert.ok(line, 'the log names the save');
    assert.deepEqual([Number(line[1]), Number(line[2])], got.window.slice(2));
    assert.ok(Number(line[3]) <= 1.3 * Number(line[4]), `read ${line[3]} for tiles of ${line[4]}`);
    assertNoWebviewErrors(webviewConsole);
  });
});
