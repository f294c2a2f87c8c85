// The page-data decoder (src/data.js) without a browser: a well-formed
// document decodes to the values put in, and each kind of damage is refused
// with a message naming the field. Run: node --test viewer/test/data.test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseReplayData, ReplayDataError } from '../src/data.js';

const b64 = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength).toString('base64');

// two rows, a unit-square polygon and a half-space, one contact in row 1
function document() {
  return {
    format: 'pegsim-replay', version: 1, source: 'mem.h5', dimension: 2, h: 0.01, every: 1,
    model: 'peg', solver: 'lemke', gravity: [0, -9.81, 0], rows: 2,
    bodies: [
      { name: 'ground', static: true, kind: 'half_space', normal: [0, 1, 0], offset: 0 },
      { name: 'box', static: false, kind: 'polygon', vertex_count: 4, triangle_count: 2, edge_count: 4,
        vertices: b64(new Float32Array([-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0])),
        triangles: b64(new Uint32Array([0, 1, 2, 0, 2, 3])),
        edges: b64(new Uint32Array([0, 1, 1, 2, 2, 3, 0, 3])) },
    ],
    step: b64(new Int32Array([0, 1])),
    time: b64(new Float64Array([0, 0.01])),
    poses: b64(new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0,
                                 0, 0, 0, 1, 0, 0, 0, 0, 0.5, 0, 1, 0, 0, 0])),
    contacts: { included: true, count: 1, offset: b64(new Uint32Array([0, 0, 1])),
                point: b64(new Float32Array([0, 0, 0])), normal: b64(new Float32Array([0, 1, 0])) },
    plots: [{ title: 'contacts', unit: '', log: false, series: [{ label: 'n', values: b64(new Float32Array([0, 1])) }]}],
  };
}

test('a well-formed document decodes to what was put in', () => {
  const d = parseReplayData(JSON.stringify(document()));
  assert.equal(d.rows, 2);
  assert.equal(d.bodies[1].name, 'box');
  assert.deepEqual(Array.from(d.bodies[1].triangles), [0, 1, 2, 0, 2, 3]);
  assert.equal(d.poses[(1 * 2 + 1) * 7 + 1], 0.5); // row 1, body 1, y
  assert.equal(d.time[1], 0.01);
  assert.deepEqual(Array.from(d.contactNormal), [0, 1, 0]);
  assert.equal(d.plots[0].series[0].values[1], 1);
});

function refused(mutate, pattern) {
  const doc = document();
  mutate(doc);
  assert.throws(() => parseReplayData(JSON.stringify(doc)), (e) => e instanceof ReplayDataError && pattern.test(e.message));
}

test('damaged documents are refused naming the field', () => {
  assert.throws(() => parseReplayData(JSON.stringify(document()).slice(0, 300)), /truncated or malformed/);
  assert.throws(() => parseReplayData(''), /no recording data/);
  refused((d) => { d.poses = d.poses.slice(0, 40); }, /^poses: .*truncated/);
  refused((d) => { d.rows = 3; }, /^step: /);
  refused((d) => { d.format = 'other'; }, /not pegsim replay data/);
  refused((d) => { d.dimension = 4; }, /dimension/);
  refused((d) => { d.bodies[1].triangles = b64(new Uint32Array([0, 1, 9, 0, 2, 3])); }, /bodies\[1\]\.triangles: vertex index 9/);
  refused((d) => { d.bodies[1].kind = 7; }, /bodies\[1\]: kind missing/);
  refused((d) => { d.contacts.offset = b64(new Uint32Array([0, 1, 0])); }, /contacts\.offset: decreases/);
  refused((d) => { d.plots[0].series[0].values = '@@@'; }, /plots\[0\]\.series\[0\] \(contacts\): not valid base64/);
  refused((d) => { d.joints = [joint()]; d.joints[0].b = 2; }, /joints\[0\]\.b: body index out of range/);
  refused((d) => { d.joints = [joint()]; d.joints[0].z_a = [0, 1]; }, /joints\[0\]\.z_a: expected 3 finite numbers/);
});

// a hinge from the world to the box at the origin, about z
function joint() {
  return { name: 'hinge', kind: 'revolute', a: -1, b: 1, anchor_a: [0, 0, 0], anchor_b: [0, 0, 0],
           x_a: [1, 0, 0], z_a: [0, 0, 1] };
}

test('joints decode with their ends and frames; a page without them has none', () => {
  assert.deepEqual(parseReplayData(JSON.stringify(document())).joints, []);
  const doc = document();
  doc.joints = [joint()];
  const j = parseReplayData(JSON.stringify(doc)).joints[0];
  assert.equal(j.a, -1);
  assert.equal(j.b, 1);
  assert.deepEqual(j.zA, [0, 0, 1]);
});
