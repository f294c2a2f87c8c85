// Side-panel plots of the per-row statistics, drawn on canvases. Each plot is
// downsampled to its pixel width once per resize (per pixel column the min and
// max of its rows, so spikes survive) onto a base canvas; the current-row
// cursor lives on an overlay canvas redrawn alone. A click jumps to the row
// under the pointer.

const SERIES_COLORS = ['#1a73e8', '#d93025', '#188038', '#f9ab00', '#9334e6'];
const HEIGHT = 92;
const PAD = { left: 54, right: 6, top: 16, bottom: 14 };

function transform(v, log) {
  if (!log) return v;
  return Math.log10(Math.max(Math.abs(v), 1e-16)); // residuals: 0 drawn at 1e-16
}

// A tick label with enough digits to tell the range's two ends apart.
function formatTick(v, log, range) {
  const x = log ? Math.pow(10, v) : v;
  if (x === 0) return '0';
  const a = Math.abs(x);
  const digits = log ? 2 : Math.min(12, Math.max(3, Math.ceil(Math.log10(a / Math.max(range, 1e-300))) + 2));
  return a >= 1e5 || a < 1e-2 ? x.toExponential(digits - 1) : String(Number(x.toPrecision(digits)));
}

class Plot {
  constructor(spec, rows, onPick) {
    this.spec = spec;
    this.rows = rows;
    this.element = document.createElement('div');
    this.element.className = 'pegsim-plot';
    this.element.dataset.title = spec.title;
    this.base = document.createElement('canvas');
    this.overlay = document.createElement('canvas');
    this.element.append(this.base, this.overlay);
    this.cursorRow = 0;
    this.overlay.addEventListener('click', (ev) => {
      const rect = this.overlay.getBoundingClientRect();
      onPick(this.rowAt(ev.clientX - rect.left));
    });
  }

  rowAt(x) {
    const w = this.width - PAD.left - PAD.right;
    const f = Math.min(Math.max((x - PAD.left) / Math.max(w, 1), 0), 1);
    return Math.round(f * (this.rows - 1));
  }

  xOf(row) {
    const w = this.width - PAD.left - PAD.right;
    return PAD.left + (this.rows > 1 ? (row / (this.rows - 1)) * w : 0);
  }

  resize(width) {
    const ratio = window.devicePixelRatio || 1;
    this.width = width;
    for (const c of [this.base, this.overlay]) {
      c.width = Math.round(width * ratio);
      c.height = Math.round(HEIGHT * ratio);
      c.style.width = `${width}px`;
      c.style.height = `${HEIGHT}px`;
      c.getContext('2d').setTransform(ratio, 0, 0, ratio, 0, 0);
    }
    this.drawBase();
    this.drawCursor(this.cursorRow);
  }

  drawBase() {
    const ctx = this.base.getContext('2d');
    const { spec, rows } = this;
    const w = this.width - PAD.left - PAD.right, h = HEIGHT - PAD.top - PAD.bottom;
    ctx.clearRect(0, 0, this.width, HEIGHT);
    let lo = Infinity, hi = -Infinity;
    for (const s of spec.series)
      for (let k = 0; k < rows; ++k) {
        const v = transform(s.values[k], spec.log);
        if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      }
    if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
    if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) { lo -= 0.5; hi += 0.5; }
    const y = (v) => PAD.top + h - ((v - lo) / (hi - lo)) * h;
    ctx.font = '10px sans-serif';
    ctx.fillStyle = '#202124';
    ctx.fillText(`${spec.title}${spec.unit ? ` (${spec.unit})` : ''}${spec.log ? ', log' : ''}`, PAD.left, 11);
    ctx.fillStyle = '#5f6368';
    ctx.textAlign = 'right';
    ctx.fillText(formatTick(hi, spec.log, hi - lo), PAD.left - 4, PAD.top + 8);
    ctx.fillText(formatTick(lo, spec.log, hi - lo), PAD.left - 4, PAD.top + h);
    ctx.textAlign = 'left';
    ctx.strokeStyle = '#dadce0';
    ctx.strokeRect(PAD.left, PAD.top, w, h);
    // per pixel column: the min-max envelope of its rows
    const columns = Math.max(1, Math.floor(w));
    let legendX = PAD.left + 4;
    spec.series.forEach((s, si) => {
      ctx.strokeStyle = SERIES_COLORS[si % SERIES_COLORS.length];
      ctx.beginPath();
      for (let c = 0; c < columns; ++c) {
        const first = Math.floor((c / columns) * rows), last = Math.max(first + 1, Math.floor(((c + 1) / columns) * rows));
        let a = Infinity, b = -Infinity;
        for (let k = first; k < last && k < rows; ++k) {
          const v = transform(s.values[k], spec.log);
          if (Number.isFinite(v)) { a = Math.min(a, v); b = Math.max(b, v); }
        }
        if (!Number.isFinite(a)) continue;
        const x = PAD.left + c + 0.5;
        if (c === 0) ctx.moveTo(x, y(a)); else ctx.lineTo(x, y(a));
        ctx.lineTo(x, y(b));
      }
      ctx.stroke();
      if (spec.series.length > 1) {
        ctx.fillStyle = ctx.strokeStyle;
        ctx.fillText(s.label, legendX, PAD.top + 10);
        legendX += ctx.measureText(s.label).width + 8;
      }
    });
  }

  drawCursor(row) {
    this.cursorRow = row;
    const ctx = this.overlay.getContext('2d');
    ctx.clearRect(0, 0, this.width, HEIGHT);
    const x = Math.round(this.xOf(row)) + 0.5;
    ctx.strokeStyle = '#202124';
    ctx.beginPath();
    ctx.moveTo(x, PAD.top);
    ctx.lineTo(x, HEIGHT - PAD.bottom);
    ctx.stroke();
  }
}

export class PlotPanel {
  constructor(container, data, onPick) {
    this.container = container;
    this.plots = data.plots.map((spec) => new Plot(spec, data.rows, onPick));
    for (const p of this.plots) container.append(p.element);
    this.resize();
  }

  resize() {
    const width = Math.max(120, this.container.clientWidth - 12);
    for (const p of this.plots) p.resize(width);
  }

  setRow(row) {
    for (const p of this.plots) p.drawCursor(row);
  }
}
