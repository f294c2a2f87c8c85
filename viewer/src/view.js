// The 3D view: renderer, camera (orbit/pan/zoom; 2D recordings: an
// orthographic camera looking down -z, pan and zoom only), lights, the body
// meshes and the overlays. setRow() poses everything for one recorded row;
// drawing happens on the next animation frame and only when something changed.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { BodySet, sceneBounds } from './bodies.js';
import { BoundsOverlay, ContactOverlay, JointOverlay } from './overlays.js';

// Drawn length of a contact normal: 60% of the moving bodies' mean hull
// radius (a body's size), at least 2% of the scene's.
function normalLength(data, size) {
  let sum = 0, n = 0;
  for (const b of data.bodies) {
    if (!b.vertices || b.isStatic) continue;
    let r = 0;
    for (let k = 0; k < b.vertices.length; k += 3) r = Math.max(r, Math.hypot(b.vertices[k], b.vertices[k + 1], b.vertices[k + 2]));
    sum += r;
    ++n;
  }
  return Math.max(n ? (0.6 * sum) / n : 0.05 * size, 0.02 * size);
}

export class View {
  constructor(container, data) {
    this.data = data;
    this.container = container;
    this.renderer = new THREE.WebGLRenderer({ antialias: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.renderer.setClearColor(0xf8f9fa);
    container.append(this.renderer.domElement);

    this.scene = new THREE.Scene();
    this.bounds = sceneBounds(data);
    const centre = this.bounds.getCenter(new THREE.Vector3());
    const size = Math.max(this.bounds.getSize(new THREE.Vector3()).length(), 1);
    this.size = size;
    this.makeCamera(centre, size);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8f98, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.copy(this.up).multiplyScalar(2).add(new THREE.Vector3(0.6, 0.35, 0.2)).multiplyScalar(size);
    this.scene.add(sun);

    this.bodyGroup = new THREE.Group();
    this.scene.add(this.bodyGroup);
    this.bodies = new BodySet(data, this.bodyGroup, this.bounds);
    this.contacts = new ContactOverlay(data, normalLength(data, size));
    this.boxes = new BoundsOverlay(data, this.bodies.matrices);
    this.joints = new JointOverlay(data, this.bodies.matrices, normalLength(data, size));
    this.scene.add(this.contacts.object, this.boxes.object, this.joints.object);
    this.showJoints = data.joints.length > 0;
    this.joints.object.visible = this.showJoints;
    this.showContacts = true;
    this.showBoxes = false;
    this.contacts.object.visible = this.showContacts;
    this.boxes.object.visible = this.showBoxes;

    this.row = -1;
    this.dirty = true;
    this.frameMs = 0; // time of the last update + render (ms)
    this.resize();
  }

  makeCamera(centre, size) {
    const g = new THREE.Vector3(...this.data.gravity);
    this.up = this.data.dimension === 2 || g.lengthSq() === 0 ? new THREE.Vector3(0, this.data.dimension === 2 ? 1 : 0, this.data.dimension === 2 ? 0 : 1)
                                                            : g.clone().negate().normalize();
    if (this.data.dimension === 2) {
      this.camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -10 * size, 10 * size);
      this.camera.position.set(centre.x, centre.y, size);
    } else {
      this.camera = new THREE.PerspectiveCamera(40, 1, size * 1e-3, size * 100);
      const side = new THREE.Vector3(1, -1.4, 0).projectOnPlane(this.up).normalize();
      this.camera.position.copy(centre).addScaledVector(side, 1.3 * size).addScaledVector(this.up, 0.45 * size);
    }
    this.camera.up.copy(this.up);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.copy(centre);
    if (this.data.dimension === 2) {
      this.controls.enableRotate = false;
      this.controls.screenSpacePanning = true;
    }
    this.controls.update();
    this.controls.addEventListener('change', () => { this.dirty = true; });
  }

  resize() {
    const w = Math.max(this.container.clientWidth, 1), h = Math.max(this.container.clientHeight, 1);
    this.renderer.setSize(w, h);
    if (this.camera.isOrthographicCamera) {
      const a = w / h;
      // the whole recording's extent in view, with a margin
      const extent = this.bounds.getSize(new THREE.Vector3());
      this.viewHeight = 1.1 * Math.max(extent.y, extent.x / a, 1e-3);
      this.camera.left = -0.5 * this.viewHeight * a;
      this.camera.right = 0.5 * this.viewHeight * a;
      this.camera.top = 0.5 * this.viewHeight;
      this.camera.bottom = -0.5 * this.viewHeight;
    } else {
      this.camera.aspect = w / h;
    }
    this.camera.updateProjectionMatrix();
    this.dirty = true;
  }

  setRow(row) {
    if (row === this.row) return;
    this.row = row;
    this.bodies.setRow(row);
    if (this.showContacts) this.contacts.update(row);
    if (this.showBoxes) this.boxes.update();
    if (this.showJoints) this.joints.update();
    this.dirty = true;
  }

  setOverlay(name, on) {
    if (name === 'contacts') {
      this.showContacts = on;
      this.contacts.object.visible = on;
      if (on) this.contacts.update(this.row);
    } else if (name === 'boxes') {
      this.showBoxes = on;
      this.boxes.object.visible = on;
      if (on) this.boxes.update();
    } else if (name === 'joints') {
      this.showJoints = on;
      this.joints.object.visible = on;
      if (on) this.joints.update();
    }
    this.dirty = true;
  }

  // Draws if anything changed; returns whether it drew.
  draw() {
    if (!this.dirty) return false;
    const start = performance.now();
    this.renderer.render(this.scene, this.camera);
    this.dirty = false;
    this.frameMs = performance.now() - start;
    return true;
  }
}
