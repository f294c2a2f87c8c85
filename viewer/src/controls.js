// Playback controls: play/pause, step back and forward, a row slider, speed
// (simulated seconds per wall-clock second), the overlay toggles and a status
// line. Playback advances a fractional row by elapsed wall time * speed / the
// recorded spacing, so a recording plays at its real rate at speed 1.

const SPEEDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 10, 25];

function button(label, title) {
  const b = document.createElement('button');
  b.textContent = label;
  b.title = title;
  return b;
}

function toggle(label, checked, onChange) {
  const l = document.createElement('label');
  const c = document.createElement('input');
  c.type = 'checkbox';
  c.checked = checked;
  c.addEventListener('change', () => onChange(c.checked));
  l.append(c, ` ${label}`);
  return { label: l, input: c };
}

export class Controls {
  constructor(container, data, setRow, setOverlay) {
    this.data = data;
    this.setRowCallback = setRow;
    this.row = 0;
    this.playing = false;
    this.position = 0; // fractional row while playing
    this.speed = 1;
    // recorded rows are h * every apart in simulated time
    this.rowSeconds = data.rows > 1 ? (data.time[data.rows - 1] - data.time[0]) / (data.rows - 1) : 1;
    if (!(this.rowSeconds > 0)) this.rowSeconds = Math.max(data.h * data.every, 1e-6);

    this.play = button('\u25B6', 'play / pause (space)');
    this.back = button('|\u25C0', 'step back (left arrow)');
    this.forward = button('\u25B6|', 'step forward (right arrow)');
    this.slider = document.createElement('input');
    this.slider.type = 'range';
    this.slider.min = '0';
    this.slider.max = String(data.rows - 1);
    this.slider.value = '0';
    this.slider.className = 'pegsim-slider';
    this.speedSelect = document.createElement('select');
    this.speedSelect.title = 'playback speed';
    for (const s of SPEEDS) {
      const o = document.createElement('option');
      o.value = String(s);
      o.textContent = `${s}\u00D7`;
      o.selected = s === 1;
      this.speedSelect.append(o);
    }
    this.contactsToggle = toggle('contacts', true, (on) => setOverlay('contacts', on));
    this.boxesToggle = toggle('bounding boxes', false, (on) => setOverlay('boxes', on));
    if (!data.contactsIncluded) {
      this.contactsToggle.input.disabled = true;
      this.contactsToggle.label.title = data.contactsNote || 'no contacts in this page';
    }
    this.status = document.createElement('span');
    this.status.className = 'pegsim-status';
    container.append(this.play, this.back, this.forward, this.slider, this.speedSelect,
                     this.contactsToggle.label, this.boxesToggle.label);
    if (data.joints.length) { // only where there are joints to draw
      this.jointsToggle = toggle('joints', true, (on) => setOverlay('joints', on));
      container.append(this.jointsToggle.label);
    }
    container.append(this.status);

    this.play.addEventListener('click', () => this.setPlaying(!this.playing));
    this.back.addEventListener('click', () => this.jump(this.row - 1));
    this.forward.addEventListener('click', () => this.jump(this.row + 1));
    this.slider.addEventListener('input', () => this.jump(Number(this.slider.value)));
    this.speedSelect.addEventListener('change', () => { this.speed = Number(this.speedSelect.value); });
    window.addEventListener('keydown', (ev) => {
      // a focused slider or menu handles its own keys
      if (ev.target instanceof HTMLSelectElement || (ev.target instanceof HTMLInputElement && ev.target.type !== 'checkbox'))
        return;
      if (ev.key === ' ') { this.setPlaying(!this.playing); ev.preventDefault(); }
      else if (ev.key === 'ArrowLeft') { this.jump(this.row - 1); ev.preventDefault(); }
      else if (ev.key === 'ArrowRight') { this.jump(this.row + 1); ev.preventDefault(); }
    });
  }

  setPlaying(on) {
    if (on && this.row >= this.data.rows - 1) this.jump(0);
    this.playing = on;
    this.position = this.row;
    this.play.textContent = on ? '||' : '\u25B6';
  }

  // Moves to `row` (clamped); stops playback.
  jump(row) {
    if (this.playing) this.setPlaying(false);
    this.show(Math.min(Math.max(Math.round(row), 0), this.data.rows - 1));
  }

  show(row) {
    this.row = row;
    this.slider.value = String(row);
    const d = this.data;
    const contacts = d.contactsIncluded ? `, ${d.contactOffset[row + 1] - d.contactOffset[row]} contacts` : '';
    this.status.textContent = `row ${row}/${d.rows - 1}  step ${d.step[row]}  t = ${d.time[row].toFixed(4)} s${contacts}`;
    this.setRowCallback(row);
  }

  // Called every animation frame with the elapsed wall time (s).
  tick(seconds) {
    if (!this.playing) return;
    this.position += (seconds * this.speed) / this.rowSeconds;
    const last = this.data.rows - 1;
    if (this.position >= last) {
      this.position = last;
      this.playing = false;
      this.play.textContent = '\u25B6';
    }
    const row = Math.floor(this.position);
    if (row !== this.row) this.show(row);
  }
}
