// Entry point of the replay page written by `pegsim replay`: reads the
// recording data embedded in <script id="pegsim-data" type="application/json">,
// builds the 3D view, the controls and the statistics plots, and exposes
// window.pegsimViewer, a small API for tests and benchmarks (docs/viewer.md).
import { parseReplayData } from './data.js';
import { View } from './view.js';
import { Controls } from './controls.js';
import { PlotPanel } from './plots.js';
import { STYLE } from './style.js';

function showError(message) {
  const box = document.createElement('div');
  box.id = 'pegsim-error';
  box.textContent = `pegsim replay: cannot show this recording: ${message}`;
  document.body.replaceChildren(box);
  window.pegsimViewer = { ready: false, error: message };
  console.error(`pegsim replay: ${message}`);
}

function layout() {
  const style = document.createElement('style');
  style.textContent = STYLE;
  document.head.append(style);
  const root = document.createElement('div');
  root.id = 'pegsim-root';
  root.innerHTML = '<div id="pegsim-main"><div id="pegsim-view"></div><div id="pegsim-controls"></div></div>'
                 + '<div id="pegsim-side"><div id="pegsim-info"></div><div id="pegsim-plots"></div></div>';
  document.body.replaceChildren(root);
  return {
    view: root.querySelector('#pegsim-view'),
    controls: root.querySelector('#pegsim-controls'),
    info: root.querySelector('#pegsim-info'),
    plots: root.querySelector('#pegsim-plots'),
  };
}

function start() {
  const t0 = performance.now();
  const timing = { parseMs: 0, sceneMs: 0, plotsMs: 0 };
  const element = document.getElementById('pegsim-data');
  let data;
  try {
    if (!element) throw new Error('the page has no recording data (no #pegsim-data element; truncated?)');
    data = parseReplayData(element.textContent);
    element.remove(); // decoded: the text (tens of MB for long recordings) is no longer needed
    timing.parseMs = performance.now() - t0;
  } catch (e) {
    showError(e.message);
    return;
  }
  const parts = layout();
  const dims = `${data.dimension}D, ${data.bodies.length} bodies, ${data.rows} rows`;
  parts.info.textContent = `${data.source}: ${dims}, h = ${data.h} s, every ${data.every}, ${data.model} model, ${data.solver}`
                         + (data.contactsNote ? ` (${data.contactsNote})` : '');
  document.title = `pegsim replay: ${data.source}`;

  let view;
  const t1 = performance.now();
  try {
    view = new View(parts.view, data);
    timing.sceneMs = performance.now() - t1;
  } catch (e) {
    showError(`cannot start WebGL (${e.message})`);
    return;
  }
  let plots = null;
  const controls = new Controls(parts.controls, data, (row) => {
    view.setRow(row);
    if (plots) plots.setRow(row);
  }, (name, on) => view.setOverlay(name, on));
  const t2 = performance.now();
  plots = new PlotPanel(parts.plots, data, (row) => controls.jump(row));
  timing.plotsMs = performance.now() - t2;
  controls.show(0);
  // the view's size is known only once the controls are laid out; follow it
  new ResizeObserver(() => view.resize()).observe(parts.view);
  window.addEventListener('resize', () => plots.resize());
  view.resize();

  // frame statistics for benchmarks: drawn frames and their update + render time
  const frames = { count: 0, totalMs: 0, maxMs: 0, ticks: 0 };
  let last = performance.now();
  const frame = (now) => {
    const start = performance.now();
    frames.ticks += 1;
    controls.tick(Math.min((now - last) / 1000, 0.25));
    last = now;
    if (view.draw()) {
      const ms = performance.now() - start;
      frames.count += 1;
      frames.totalMs += ms;
      frames.maxMs = Math.max(frames.maxMs, ms);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  view.draw();

  const loadMs = performance.now() - t0;
  window.pegsimViewer = {
    ready: true,
    error: null,
    loadMs,
    timing, // ms: decoding the data, building the 3D scene, drawing the plots
    rows: data.rows,
    bodies: data.bodies.map((b) => b.name),
    dimension: data.dimension,
    row: () => controls.row,
    setRow: (row) => { controls.jump(row); view.draw(); return controls.row; },
    play: (speed) => { if (speed) controls.speed = speed; controls.setPlaying(true); },
    playing: () => controls.playing,
    rowSeconds: controls.rowSeconds, // simulated seconds between rows
    // the three.js object's world matrix (column-major, 16 numbers)
    bodyMatrix: (i) => Array.from(view.bodies.worldMatrix(i).elements),
    contactsDrawn: () => (view.showContacts ? view.contacts.count : 0),
    jointsDrawn: () => (view.showJoints ? view.joints.count : 0),
    plotTitles: () => plots.plots.map((p) => p.spec.title),
    frameStats: () => ({ ticks: frames.ticks, frames: frames.count, meanMs: frames.count ? frames.totalMs / frames.count : 0, maxMs: frames.maxMs }),
    resetFrameStats: () => { frames.ticks = 0; frames.count = 0; frames.totalMs = 0; frames.maxMs = 0; },
  };
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
