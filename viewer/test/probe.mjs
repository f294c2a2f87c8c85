// Drives a replay page in headless Chromium (Debian's /usr/bin/chromium, via
// playwright-core) for the tests and the benchmark.
//
//   node probe.mjs check PAGE OUTDIR   poses at row 0 and after moving the slider,
//                                      plots, toggles, a plot click, screenshot
//   node probe.mjs error PAGE OUTDIR   the message a bad page shows
//   node probe.mjs bench PAGE          load time and frame time while playing
//                                      (viewport: $PROBE_VIEWPORT, default 1280x760)
//
// Results go to OUTDIR as plain text that the C++ test (tests/cli/replay_test.cpp)
// compares with the recording read by read_recording(); exit status 1 and a
// message on stderr when the page itself misbehaves.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [mode, page_path, outdir] = process.argv.slice(2);
const executablePath = process.env.PEGSIM_CHROMIUM || '/usr/bin/chromium';

function die(message) {
  console.error(`probe: ${message}`);
  process.exit(1);
}

if (!mode || !page_path) die('usage: probe.mjs check|error|bench PAGE [OUTDIR]');
if (!fs.existsSync(executablePath)) die(`no Chromium at ${executablePath}`);

const browser = await chromium.launch({
  executablePath,
  headless: true,
  // WebGL in a headless machine without a GPU: ANGLE on SwiftShader (software)
  args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--ignore-gpu-blocklist'],
});
try {
  const size = (process.env.PROBE_VIEWPORT || '1280x760').split('x').map(Number);
  const context = await browser.newContext({ viewport: { width: size[0], height: size[1] } });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
  const started = Date.now();
  await page.goto(pathToFileURL(path.resolve(page_path)).href, { waitUntil: 'load', timeout: 120000 });
  await page.waitForFunction(() => window.pegsimViewer && (window.pegsimViewer.ready || window.pegsimViewer.error),
                             null, { timeout: 120000 });
  const wallLoadMs = Date.now() - started;
  const state = await page.evaluate(() => ({ ready: window.pegsimViewer.ready, error: window.pegsimViewer.error }));
  if (consoleErrors.length) die(consoleErrors.join('\n'));

  if (mode === 'error') {
    if (state.ready) die('the page loaded although its data is bad');
    const shown = await page.textContent('#pegsim-error');
    fs.mkdirSync(outdir, { recursive: true });
    fs.writeFileSync(path.join(outdir, 'error.txt'), `${shown}\n`);
    await page.screenshot({ path: path.join(outdir, 'error.png') });
    console.log(shown);
  } else if (!state.ready) {
    die(`the page shows an error: ${state.error}`);
  } else if (mode === 'check') {
    fs.mkdirSync(outdir, { recursive: true });
    const lines = [];
    const dump = async (row) => {
      const { matrices, current } = await page.evaluate(() => {
        const v = window.pegsimViewer;
        return { current: v.row(), matrices: v.bodies.map((_, i) => v.bodyMatrix(i)) };
      });
      if (current !== row) die(`expected row ${row}, the viewer is at ${current}`);
      matrices.forEach((m, i) => lines.push(`pose ${row} ${i} ${m.join(' ')}`));
    };
    const rows = await page.evaluate(() => window.pegsimViewer.rows);
    await dump(0);
    // move the slider as a user does: set its value, fire 'input'
    const target = Math.floor((2 * (rows - 1)) / 3);
    await page.evaluate((row) => {
      const s = document.querySelector('.pegsim-slider');
      s.value = String(row);
      s.dispatchEvent(new Event('input', { bubbles: true }));
    }, target);
    await dump(target);
    lines.push(`contacts_drawn ${target} ${await page.evaluate(() => window.pegsimViewer.contactsDrawn())}`);
    lines.push(`joints_drawn ${await page.evaluate(() => window.pegsimViewer.jointsDrawn())}`);
    // the step-forward button
    await page.click('button[title^="step forward"]');
    lines.push(`after_forward ${await page.evaluate(() => window.pegsimViewer.row())}`);
    // toggles: bounding boxes on (the screenshot shows them), contacts stay on
    const toggles = await page.$$eval('#pegsim-controls label', (ls) => ls.map((l) => l.textContent.trim()));
    lines.push(`toggles ${toggles.join('|')}`);
    await page.click('text=bounding boxes');
    const titles = await page.evaluate(() => window.pegsimViewer.plotTitles());
    lines.push(`plots ${titles.join('|')}`);
    // click the first plot three quarters of the way along its time axis
    const plot = await page.$('.pegsim-plot canvas:last-child');
    const box = await plot.boundingBox();
    const left = 54, right = 6; // plots.js PAD
    await page.mouse.click(box.x + left + 0.75 * (box.width - left - right), box.y + box.height / 2);
    lines.push(`plot_click ${await page.evaluate(() => window.pegsimViewer.row())}`);
    await page.evaluate(() => window.pegsimViewer.setRow(window.pegsimViewer.row()));
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(outdir, 'replay.png') });
    lines.push(`rows ${rows}`);
    lines.push(`load_ms ${await page.evaluate(() => window.pegsimViewer.loadMs)}`);
    fs.writeFileSync(path.join(outdir, 'probe.txt'), `${lines.join('\n')}\n`);
  } else if (mode === 'bench') {
    const info = await page.evaluate(() => ({ rows: window.pegsimViewer.rows, bodies: window.pegsimViewer.bodies.length,
                                               loadMs: window.pegsimViewer.loadMs, timing: window.pegsimViewer.timing }));
    // play at one row per 60 Hz frame, so every frame shows a new row, for 5 s
    await page.evaluate(() => {
      const v = window.pegsimViewer;
      v.resetFrameStats();
      v.play(v.rowSeconds * 60);
    });
    const t0 = await page.evaluate(() => performance.now());
    const row0 = await page.evaluate(() => window.pegsimViewer.row());
    await page.waitForTimeout(5000);
    const r = await page.evaluate(() => ({ s: window.pegsimViewer.frameStats(), row: window.pegsimViewer.row(),
                                            now: performance.now() }));
    const seconds = (r.now - t0) / 1000;
    console.log(`page: ${page_path} (${(fs.statSync(page_path).size / 1e6).toFixed(1)} MB), ${info.rows} rows x ${info.bodies} bodies`);
    console.log(`load: ${wallLoadMs} ms to ready (navigation + parse + decode + scene), viewer start ${info.loadMs.toFixed(0)} ms ` +
                `(decode ${info.timing.parseMs.toFixed(0)}, scene ${info.timing.sceneMs.toFixed(0)}, plots ${info.timing.plotsMs.toFixed(0)})`);
    console.log(`animation frames: ${r.s.ticks} in ${seconds.toFixed(1)} s`);
    console.log(`playing: ${r.s.frames} frames drawn in ${seconds.toFixed(1)} s (${(r.s.frames / seconds).toFixed(1)} fps), ` +
                `rows ${row0} -> ${r.row}`);
    console.log(`frame (update + render, software GL): mean ${r.s.meanMs.toFixed(2)} ms, max ${r.s.maxMs.toFixed(2)} ms`);
  } else {
    die(`unknown mode '${mode}'`);
  }
} finally {
  await browser.close();
}
