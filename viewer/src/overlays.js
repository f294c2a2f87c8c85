// Per-row overlays, each one LineSegments whose buffer is allocated once (for
// the largest row) and rewritten in place: contact normals (from the contact
// point on A along the normal from A onto B) and world-frame axis-aligned
// bounding boxes of the bodies' hulls.
import * as THREE from 'three';

function segments(capacity, color) {
  const positions = new Float32Array(Math.max(capacity, 1) * 6);
  const g = new THREE.BufferGeometry();
  const attribute = new THREE.BufferAttribute(positions, 3);
  attribute.setUsage(THREE.DynamicDrawUsage);
  g.setAttribute('position', attribute);
  g.setDrawRange(0, 0);
  const lines = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color, depthTest: false }));
  lines.frustumCulled = false;
  lines.renderOrder = 10;
  return { lines, positions, attribute, count: 0 };
}

export class ContactOverlay {
  constructor(data, length) {
    this.data = data;
    this.length = length; // drawn normal length (m)
    let most = 0;
    if (data.contactsIncluded)
      for (let k = 0; k < data.rows; ++k) most = Math.max(most, data.contactOffset[k + 1] - data.contactOffset[k]);
    this.s = segments(most, 0xd93025);
    this.object = this.s.lines;
  }

  update(row) {
    const d = this.data;
    if (!d.contactsIncluded) return;
    const first = d.contactOffset[row], last = d.contactOffset[row + 1];
    const out = this.s.positions, L = this.length;
    let j = 0;
    for (let c = first; c < last; ++c) {
      const px = d.contactPoint[3 * c], py = d.contactPoint[3 * c + 1], pz = d.contactPoint[3 * c + 2];
      out[j++] = px; out[j++] = py; out[j++] = pz;
      out[j++] = px + L * d.contactNormal[3 * c];
      out[j++] = py + L * d.contactNormal[3 * c + 1];
      out[j++] = pz + L * d.contactNormal[3 * c + 2];
    }
    this.s.count = last - first;
    this.s.lines.geometry.setDrawRange(0, 2 * this.s.count);
    this.s.attribute.needsUpdate = true;
  }

  get count() { return this.s.count; }
}

// the 12 edges of a box as corner-index pairs; corner bit 0: x, 1: y, 2: z
const BOX_EDGES = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7];

export class BoundsOverlay {
  constructor(data, matrices) {
    this.data = data;
    this.matrices = matrices; // per body, world (BodySet.matrices)
    this.s = segments(12 * data.bodies.length, 0x1a73e8);
    this.object = this.s.lines;
    this.min = new Float64Array(3);
    this.max = new Float64Array(3);
  }

  // Uses the bodies' current matrices (call after the bodies are posed).
  update() {
    const out = this.s.positions;
    let j = 0, boxes = 0;
    const bodies = this.data.bodies;
    for (let i = 0; i < bodies.length; ++i) {
      const body = bodies[i];
      if (!body.vertices) continue;
      const e = this.matrices[i].elements; // column-major
      const v = body.vertices, lo = this.min, hi = this.max;
      lo.fill(Infinity); hi.fill(-Infinity);
      for (let k = 0; k < v.length; k += 3) {
        for (let a = 0; a < 3; ++a) {
          const w = e[a] * v[k] + e[4 + a] * v[k + 1] + e[8 + a] * v[k + 2] + e[12 + a];
          if (w < lo[a]) lo[a] = w;
          if (w > hi[a]) hi[a] = w;
        }
      }
      for (const corner of BOX_EDGES) {
        out[j++] = corner & 1 ? hi[0] : lo[0];
        out[j++] = corner & 2 ? hi[1] : lo[1];
        out[j++] = corner & 4 ? hi[2] : lo[2];
      }
      ++boxes;
    }
    this.s.count = 12 * boxes;
    this.s.lines.geometry.setDrawRange(0, 2 * this.s.count);
    this.s.attribute.needsUpdate = true;
  }
}
