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

function edgeGeometry(body) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(body.vertices, 3));
  g.setIndex(new THREE.BufferAttribute(body.edges, 1));
  return g;
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

// Builds the body objects into `group`; returns them (index = body index).
export function buildBodies(data, group, bounds) {
  const scratch = makeScratch();
  const matrix = new THREE.Matrix4();
  const inverse = new THREE.Matrix4();
  const size = Math.max(bounds.getSize(new THREE.Vector3()).length(), 1);
  const centre = bounds.getCenter(new THREE.Vector3());
  const objects = [];
  data.bodies.forEach((body, i) => {
    const color = body.isStatic ? STATIC_COLOR : bodyColor(i);
    // Lambert: per-vertex-cheap diffuse light, enough for flat facets
    const material = new THREE.MeshLambertMaterial({
      color, flatShading: true, side: THREE.DoubleSide,
      polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
    });
    let object;
    if (body.kind === 'half_space') {
      poseMatrix(data, 0, i, matrix, scratch);
      const local = centre.clone().applyMatrix4(inverse.copy(matrix).invert());
      object = new THREE.Mesh(halfSpaceGeometry(body, local, size, data.dimension), material);
      material.transparent = data.dimension === 3;
      material.opacity = 0.85;
    } else {
      object = new THREE.Mesh(hullGeometry(body), material);
      object.add(new THREE.LineSegments(edgeGeometry(body), new THREE.LineBasicMaterial({ color: 0x202124 })));
    }
    object.name = body.name;
    object.matrixAutoUpdate = false;
    group.add(object);
    objects.push(object);
  });
  return objects;
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
