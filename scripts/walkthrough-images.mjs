// Copies the e2e tier's screenshots that the getting-started walkthrough shows into
// media/walkthrough/, scaled down to 960 px wide (ImageMagick's `convert` when installed,
// else copied as they are). The whole-window ones are taken below the title bar, which in the
// e2e workbench says "[Extension Development Host]" (test/e2e/workbench.ts `screenshot`).
// Run after `npm run test:e2e`:
//
//   node scripts/walkthrough-images.mjs
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FROM = join(ROOT, 'test-results', 'screenshots');
const TO = join(ROOT, 'media', 'walkthrough');

/** e2e screenshot → walkthrough image (the names package.json's walkthrough steps use). */
const IMAGES = {
  welcome: 'sign-in',
  'sidebar-projects': 'projects',
  'map-aoi': 'map-aoi',
  'order-map-results': 'search',
  'order-summary': 'order-summary',
};

function hasConvert() {
  try {
    execFileSync('convert', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

mkdirSync(TO, { recursive: true });
const missing = Object.keys(IMAGES).filter((name) => !existsSync(join(FROM, `${name}.png`)));
if (missing.length) {
  console.error(`missing e2e screenshots (run the e2e tier first): ${missing.join(', ')}`);
  process.exit(1);
}
const scale = hasConvert();
for (const [name, target] of Object.entries(IMAGES)) {
  const src = join(FROM, `${name}.png`);
  const dst = join(TO, `${target}.png`);
  if (scale) execFileSync('convert', [src, '-resize', '960x>', '-strip', dst]);
  else copyFileSync(src, dst);
  console.log(`${name}.png → media/walkthrough/${target}.png`);
}
