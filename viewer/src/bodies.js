// Three.js objects for the recorded bodies: one mesh per body (its real hull,
// from the recording's vertices and triangles, outlined by its facet edges),
// placed each frame by writing its matrix from the recorded pose - no
// allocation per frame. Half-spaces are drawn as a large slab (3D: a square
// plate; 2D: a strip below the boundary line) sized from the scene's extent.
import * as THREE from 'three';

const STATIC_COLOR = 0x9aa0a6;

function bodyColor(i) {
  // golden-angle hues: neighbouring indices get distinct colours
  return new THREE.Color().setHSL(((i * 0.618034) % 1 + 1) % 1, 0.55, 0.55);
}

function hullGeometry(body) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(body.vertices, 3));
  g.setIndex(new THREE.BufferAttribute(body.triangles, 1));
  return g.toNonIndexed(); // flat shading needs a normal per facet corner
}

// Corners of the half-space's visible slab in the body frame: the solid is
// {p : n.p <= offset}; the slab is centred on the point of the boundary
// nearest to `centre` (body frame) and `size` wide.
function halfSpaceGeometry(body, centre, size, dimension) {
  const n = new THREE.Vector3(...body.normal).normalize();
  const onPlane = centre.clone().addScaledVector(n, body.offset - n.dot(centre));
  const g = new THREE.BufferGeometry();
  if (dimension === 2) {
    const t = new THREE.Vector3(-n.y, n.x, 0).multiplyScalar(size);
    const d = n.clone().multiplyScalar(-0.25 * size);
    const a = onPlane.clone().sub(t), b = onPlane.clone().add(t);
    const c = b.clone().add(d), e = a.clone().add(d);
    g.setFromPoints([a, e, c, a, c, b]);
  } else {
    const u = new THREE.Vector3().crossVectors(n, Math.abs(n.x) < 0.9 ? new THREE.Vector3(1, 0, 0)
                                                                       : new THREE.Vector3(0, 1, 0)).normalize();
    const v = new THREE.Vector3().crossVectors(n, u);
    const p = (su, sv) => onPlane.clone().addScaledVector(u, su * size).addScaledVector(v, sv * size);
    g.setFromPoints([p(-1, -1), p(1, -1), p(1, 1), p(-1, -1), p(1, 1), p(-1, 1)]);
  }
  g.computeVertexNormals();
  return g;
}

// Writes row `row`'s pose of body `i` into `matrix` (float32 data, as recorded).
export function poseMatrix(data, row, i, matrix, scratch) {
  const o = (row * data.bodies.length + i) * 7;
  const p = data.poses;
  scratch.position.set(p[o], p[o + 1], p[o + 2]);
  scratch.quaternion.set(p[o + 4], p[o + 5], p[o + 6], p[o + 3]); // three.js: x, y, z, w
  matrix.compose(scratch.position, scratch.quaternion, scratch.scale);
}

export function makeScratch() {
  return { position: new THREE.Vector3(), quaternion: new THREE.Quaternion(), scale: new THREE.Vector3(1, 1, 1) };
}

// Identical hulls share one key (exact vertex and triangle data).
function hullKey(body) {
  return `${Array.from(body.vertices).join(',')}|${Array.from(body.triangles).join(',')}`;
}

// The bodies of a recording in three.js. Hulls are drawn with one
// InstancedMesh per distinct hull (a pile of 100 equal boxes is one draw
// call), their facet outlines as one LineSegments rewritten in world
// coordinates each row, half-spaces as one mesh each. matrices[i] is body i's
// world transform at the current row.
export class BodySet {
  constructor(data, group, bounds) {
    this.data = data;
    this.scratch = makeScratch();
    this.matrices = data.bodies.map(() => new THREE.Matrix4());
    this.slots = []; // per body: [instanced mesh, instance index] or [mesh, -1]
    const size = Math.max(bounds.getSize(new THREE.Vector3()).length(), 1);
    const centre = bounds.getCenter(new THREE.Vector3());
    const groups = new Map(); // hull key -> body indices, in body order
    let edgeVertices = 0;
    data.bodies.forEach((body, i) => {
      if (body.kind === 'half_space') return;
      const key = hullKey(body);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(i);
      edgeVertices += body.edges.length;
    });
    // Lambert: cheap diffuse light, enough for flat facets
    const surface = (color) => new THREE.MeshLambertMaterial({
      color, flatShading: true, side: THREE.DoubleSide,
      polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
    });
    for (const members of groups.values()) {
      const mesh = new THREE.InstancedMesh(hullGeometry(data.bodies[members[0]]), surface(0xffffff), members.length);
      mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      mesh.frustumCulled = false; // instances move anywhere; the hull's own bounds say nothing
      members.forEach((i, k) => {
        mesh.setColorAt(k, data.bodies[i].isStatic ? new THREE.Color(STATIC_COLOR) : bodyColor(i));
        this.slots[i] = [mesh, k];
      });
      group.add(mesh);
    }
    data.bodies.forEach((body, i) => {
      if (body.kind !== 'half_space') return;
      poseMatrix(data, 0, i, this.matrices[i], this.scratch);
      const local = centre.clone().applyMatrix4(this.matrices[i].clone().invert());
      const material = surface(STATIC_COLOR);
      material.transparent = data.dimension === 3;
      material.opacity = 0.85;
      const mesh = new THREE.Mesh(halfSpaceGeometry(body, local, size, data.dimension), material);
      mesh.name = body.name;
      mesh.matrixAutoUpdate = false;
      this.slots[i] = [mesh, -1];
      group.add(mesh);
    });
    // all facet outlines, world frame
    this.edgePositions = new Float32Array(Math.max(edgeVertices, 1) * 3);
    const g = new THREE.BufferGeometry();
    this.edgeAttribute = new THREE.BufferAttribute(this.edgePositions, 3);
    this.edgeAttribute.setUsage(THREE.DynamicDrawUsage);
    g.setAttribute('position', this.edgeAttribute);
    g.setDrawRange(0, edgeVertices);
    this.outlines = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0x202124 }));
    this.outlines.frustumCulled = false;
    group.add(this.outlines);
  }

  setRow(row) {
    const { data, matrices } = this;
    let j = 0;
    const out = this.edgePositions;
    for (let i = 0; i < matrices.length; ++i) {
      const m = matrices[i];
      poseMatrix(data, row, i, m, this.scratch);
      const [object, k] = this.slots[i];
      if (k < 0) {
        object.matrix.copy(m);
        object.matrixWorldNeedsUpdate = true;
        continue;
      }
      object.setMatrixAt(k, m);
      object.instanceMatrix.needsUpdate = true;
      const body = data.bodies[i], v = body.vertices, edges = body.edges, e = m.elements;
      for (let n = 0; n < edges.length; ++n) {
        const c = 3 * edges[n], x = v[c], y = v[c + 1], z = v[c + 2];
        out[j++] = e[0] * x + e[4] * y + e[8] * z + e[12];
        out[j++] = e[1] * x + e[5] * y + e[9] * z + e[13];
        out[j++] = e[2] * x + e[6] * y + e[10] * z + e[14];
      }
    }
    this.edgeAttribute.needsUpdate = true;
  }

  // Body i's world matrix as three.js holds it for drawing (instance matrix
  // times the mesh's world matrix), column-major.
  worldMatrix(i) {
    const [object, k] = this.slots[i];
    object.updateMatrixWorld(true);
    if (k < 0) return object.matrixWorld.clone();
    const m = new THREE.Matrix4();
    object.getMatrixAt(k, m);
    return m.premultiply(object.matrixWorld);
  }
}

// Bounding box of every recorded body position and hull extent (for the
// camera and the half-space slabs).
export function sceneBounds(data) {
  const box = new THREE.Box3();
  const nb = data.bodies.length;
  let radius = 0;
  data.bodies.forEach((b) => {
    if (!b.vertices) return;
    for (let k = 0; k < b.vertices.length; k += 3)
      radius = Math.max(radius, Math.hypot(b.vertices[k], b.vertices[k + 1], b.vertices[k + 2]));
  });
  const p = new THREE.Vector3();
  for (let row = 0; row < data.rows; ++row)
    for (let i = 0; i < nb; ++i) {
      if (data.bodies[i].kind === 'half_space') continue;
      const o = (row * nb + i) * 7;
      box.expandByPoint(p.set(data.poses[o], data.poses[o + 1], data.poses[o + 2]));
    }
  if (box.isEmpty()) box.expandByPoint(p.set(0, 0, 0));
  box.expandByScalar(Math.max(radius, 0.5));
  if (data.dimension === 2) { box.min.z = 0; box.max.z = 0; }
  return box;
}
