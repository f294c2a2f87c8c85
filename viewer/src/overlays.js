// Per-row overlays, each one LineSegments whose buffer is allocated once (for
// the largest row) and rewritten in place: contact normals (from the contact
// point on A along the normal from A onto B), world-frame axis-aligned
// bounding boxes of the bodies' hulls, and joints (JointOverlay, below).
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

// Joints: per joint its axis z_a drawn through A's anchor (length `length`,
// centred), a shorter x_a from the anchor (the zero of its angle), and the
// segment from A's anchor to B's (the joint's position error: invisible when
// the joint holds). An end that is the world (-1) has its anchor and axes in
// world coordinates already.
export class JointOverlay {
  constructor(data, matrices, length) {
    this.data = data;
    this.matrices = matrices; // per body, world (BodySet.matrices)
    this.length = length;
    this.s = segments(3 * data.joints.length, 0x188038);
    this.object = this.s.lines;
    this.p = new Float64Array(3);
  }

  // world point (w = 1) or direction (w = 0) of a vector in body `body`'s frame
  map(body, v, w, out) {
    if (body < 0) { out[0] = v[0]; out[1] = v[1]; out[2] = v[2]; return out; }
    const e = this.matrices[body].elements; // column-major
    for (let a = 0; a < 3; ++a) out[a] = e[a] * v[0] + e[4 + a] * v[1] + e[8 + a] * v[2] + w * e[12 + a];
    return out;
  }

  // Uses the bodies' current matrices (call after the bodies are posed).
  update() {
    const out = this.s.positions, L = this.length;
    const pa = new Float64Array(3), pb = new Float64Array(3), z = new Float64Array(3), x = new Float64Array(3);
    let j = 0;
    const put = (p, q) => { out[j++] = p[0]; out[j++] = p[1]; out[j++] = p[2]; out[j++] = q[0]; out[j++] = q[1]; out[j++] = q[2]; };
    for (const joint of this.data.joints) {
      this.map(joint.a, joint.anchorA, 1, pa);
      this.map(joint.b, joint.anchorB, 1, pb);
      this.map(joint.a, joint.zA, 0, z);
      this.map(joint.a, joint.xA, 0, x);
      put([pa[0] - 0.5 * L * z[0], pa[1] - 0.5 * L * z[1], pa[2] - 0.5 * L * z[2]],
          [pa[0] + 0.5 * L * z[0], pa[1] + 0.5 * L * z[1], pa[2] + 0.5 * L * z[2]]);
      put(pa, [pa[0] + 0.3 * L * x[0], pa[1] + 0.3 * L * x[1], pa[2] + 0.3 * L * x[2]]);
      put(pa, pb);
    }
    this.s.count = 3 * this.data.joints.length;
    this.s.lines.geometry.setDrawRange(0, 2 * this.s.count);
    this.s.attribute.needsUpdate = true;
  }

  get count() { return this.data.joints.length; }
}
