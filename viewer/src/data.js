// The recording data embedded in the page by `pegsim replay` (format
// "pegsim-replay", documented in docs/viewer.md): JSON whose bulk arrays are
// little-endian typed arrays in base64. parseReplayData() decodes it and checks
// every length against the declared counts, so a malformed or truncated page
// stops with a message that says which field is wrong instead of drawing
// garbage.

export class ReplayDataError extends Error {}

const FORMAT = 'pegsim-replay';
const VERSION = 1;

function fail(what) {
  throw new ReplayDataError(what);
}

// base64 -> a fresh (aligned) typed array of `Type`; `count` elements expected.
export function decodeArray(base64, Type, count, field) {
  if (typeof base64 !== 'string') fail(`${field}: missing (expected base64 text)`);
  let binary;
  try {
    binary = atob(base64);
  } catch (e) {
    fail(`${field}: not valid base64 (truncated?)`);
  }
  const bytes = Type.BYTES_PER_ELEMENT;
  if (binary.length !== count * bytes)
    fail(`${field}: ${binary.length} bytes, expected ${count * bytes} (${count} values): truncated or malformed`);
  const buffer = new ArrayBuffer(binary.length);
  const u8 = new Uint8Array(buffer);
  for (let i = 0; i < binary.length; ++i) u8[i] = binary.charCodeAt(i);
  return new Type(buffer);
}

function integer(value, field, min) {
  if (!Number.isInteger(value) || value < min) fail(`${field}: expected an integer >= ${min}, got ${value}`);
  return value;
}

function parseBody(b, i) {
  const field = `bodies[${i}]`;
  if (typeof b !== 'object' || b === null) fail(`${field}: not an object`);
  const body = { name: String(b.name ?? `body${i}`), isStatic: !!b.static, kind: b.kind };
  if (b.kind === 'half_space') {
    if (!Array.isArray(b.normal) || b.normal.length !== 3 || typeof b.offset !== 'number')
      fail(`${field}: half_space needs normal [3] and offset`);
    body.normal = b.normal.map(Number);
    body.offset = b.offset;
    return body;
  }
  // every bounded kind (polytopes, compounds, curved shapes: sphere, capsule, ...) comes as its mesh
  if (typeof b.kind !== 'string' || b.kind === '') fail(`${field}: kind missing (expected a shape kind's name)`);
  const nv = integer(b.vertex_count, `${field}.vertex_count`, 1);
  const nt = integer(b.triangle_count, `${field}.triangle_count`, 0);
  const ne = integer(b.edge_count, `${field}.edge_count`, 0);
  body.vertices = decodeArray(b.vertices, Float32Array, 3 * nv, `${field}.vertices`);
  body.triangles = decodeArray(b.triangles, Uint32Array, 3 * nt, `${field}.triangles`);
  body.edges = decodeArray(b.edges, Uint32Array, 2 * ne, `${field}.edges`);
  for (const [name, list] of [['triangles', body.triangles], ['edges', body.edges]])
    for (const v of list) if (v >= nv) fail(`${field}.${name}: vertex index ${v} out of range (${nv} vertices)`);
  return body;
}

function vector3(v, field) {
  if (!Array.isArray(v) || v.length !== 3 || !v.every(Number.isFinite)) fail(`${field}: expected 3 finite numbers`);
  return v.map(Number);
}

// joints: ends (-1: the world) and frames in the ends' body frames
function parseJoints(list, nb) {
  if (!Array.isArray(list)) fail('joints: expected a list');
  return list.map((j, i) => {
    const field = `joints[${i}]`;
    if (typeof j !== 'object' || j === null) fail(`${field}: not an object`);
    for (const end of ['a', 'b'])
      if (!Number.isInteger(j[end]) || j[end] < -1 || j[end] >= nb) fail(`${field}.${end}: body index out of range, got ${j[end]}`);
    return {
      name: String(j.name ?? `joint${i}`), kind: String(j.kind ?? ''), a: j.a, b: j.b,
      anchorA: vector3(j.anchor_a, `${field}.anchor_a`), anchorB: vector3(j.anchor_b, `${field}.anchor_b`),
      xA: vector3(j.x_a, `${field}.x_a`), zA: vector3(j.z_a, `${field}.z_a`),
    };
  });
}

// Parses the text of the page's data element; throws ReplayDataError.
export function parseReplayData(text) {
  if (!text || !text.trim()) fail('the page holds no recording data');
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    fail(`the embedded recording data is truncated or malformed (${e.message})`);
  }
  if (raw.format !== FORMAT) fail(`not pegsim replay data (format '${raw.format}')`);
  if (raw.version !== VERSION) fail(`unsupported replay data version ${raw.version} (this viewer reads ${VERSION})`);
  if (raw.dimension !== 2 && raw.dimension !== 3) fail(`dimension must be 2 or 3, got ${raw.dimension}`);
  if (!Array.isArray(raw.bodies) || raw.bodies.length === 0) fail('bodies: none');
  const rows = integer(raw.rows, 'rows', 1);
  const nb = raw.bodies.length;
  const data = {
    source: String(raw.source ?? ''),
    dimension: raw.dimension,
    h: Number(raw.h),
    every: Number(raw.every ?? 1),
    model: String(raw.model ?? ''),
    solver: String(raw.solver ?? ''),
    gravity: Array.isArray(raw.gravity) ? raw.gravity.map(Number) : [0, 0, -9.81],
    rows,
    bodies: raw.bodies.map(parseBody),
  };
  data.step = decodeArray(raw.step, Int32Array, rows, 'step');
  data.time = decodeArray(raw.time, Float64Array, rows, 'time');
  // per row and body: x, y, z, qw, qx, qy, qz
  data.poses = decodeArray(raw.poses, Float32Array, rows * nb * 7, 'poses');
  const c = raw.contacts ?? {};
  data.contactsIncluded = !!c.included;
  data.contactsNote = String(c.note ?? '');
  if (data.contactsIncluded) {
    const m = integer(c.count, 'contacts.count', 0);
    data.contactOffset = decodeArray(c.offset, Uint32Array, rows + 1, 'contacts.offset');
    for (let k = 0; k < rows; ++k)
      if (data.contactOffset[k + 1] < data.contactOffset[k]) fail(`contacts.offset: decreases at row ${k}`);
    if (data.contactOffset[0] !== 0 || data.contactOffset[rows] !== m) fail('contacts.offset: must run from 0 to count');
    data.contactPoint = decodeArray(c.point, Float32Array, 3 * m, 'contacts.point');
    data.contactNormal = decodeArray(c.normal, Float32Array, 3 * m, 'contacts.normal');
  }
  data.joints = parseJoints(raw.joints ?? [], nb);
  if (!Array.isArray(raw.plots)) fail('plots: missing');
  data.plots = raw.plots.map((p, i) => {
    if (!Array.isArray(p.series) || p.series.length === 0) fail(`plots[${i}]: no series`);
    return {
      title: String(p.title),
      unit: String(p.unit ?? ''),
      log: !!p.log,
      series: p.series.map((s, j) => ({
        label: String(s.label),
        values: decodeArray(s.values, Float32Array, rows, `plots[${i}].series[${j}] (${p.title})`),
      })),
    };
  });
  return data;
}
