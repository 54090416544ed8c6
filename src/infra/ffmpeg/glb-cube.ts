// A tiny valid glTF 2.0 binary (GLB) of coloured blocks, built in TypeScript: 3d outputs need no ffmpeg, nor Node.
import type { RenderJob } from '../renderer.js';
import { paletteFor } from './palette.js';

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a; // 'JSON'
const CHUNK_BIN = 0x004e4942; // 'BIN\0'
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;

/** One block's corner and edge, in metres. */
interface Block {
  x: number;
  y: number;
  z: number;
  size: number;
}

/** low: one cube. high: a stepped pyramid of 3x3 + 2x2 + 1 blocks. */
export function blocksFor(detail: string | undefined): Block[] {
  if (detail !== 'high') return [{ x: -0.5, y: 0, z: -0.5, size: 1 }];
  const blocks: Block[] = [];
  const size = 0.32;
  const step = 0.34;
  for (const [layer, n] of [
    [0, 3],
    [1, 2],
    [2, 1],
  ] as const) {
    const offset = -((n - 1) * step + size) / 2;
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) blocks.push({ x: offset + i * step, y: layer * step, z: offset + j * step, size });
    }
  }
  return blocks;
}

/** Each face has its own 4 vertices so normals stay flat: 24 vertices and 36 indices per block. */
const FACES: ReadonlyArray<{ normal: [number, number, number]; corners: Array<[number, number, number]> }> = [
  {
    normal: [1, 0, 0],
    corners: [
      [1, 0, 0],
      [1, 1, 0],
      [1, 1, 1],
      [1, 0, 1],
    ],
  },
  {
    normal: [-1, 0, 0],
    corners: [
      [0, 0, 1],
      [0, 1, 1],
      [0, 1, 0],
      [0, 0, 0],
    ],
  },
  {
    normal: [0, 1, 0],
    corners: [
      [0, 1, 0],
      [0, 1, 1],
      [1, 1, 1],
      [1, 1, 0],
    ],
  },
  {
    normal: [0, -1, 0],
    corners: [
      [0, 0, 0],
      [1, 0, 0],
      [1, 0, 1],
      [0, 0, 1],
    ],
  },
  {
    normal: [0, 0, 1],
    corners: [
      [0, 0, 1],
      [1, 0, 1],
      [1, 1, 1],
      [0, 1, 1],
    ],
  },
  {
    normal: [0, 0, -1],
    corners: [
      [1, 0, 0],
      [0, 0, 0],
      [0, 1, 0],
      [1, 1, 0],
    ],
  },
];

function pad4(n: number): number {
  return (n + 3) & ~3;
}

/** The bytes of a typed array, as a view on its own buffer. */
const bytesOf = (array: Float32Array | Uint16Array): Uint8Array =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** Plain Uint8Array and DataView (little-endian, as glTF requires), so the same bytes come out in Node and a browser. */
export function buildGlb(job: RenderJob): Uint8Array {
  const blocks = blocksFor(job.spec.detail);
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  for (const b of blocks) {
    for (const face of FACES) {
      const base = positions.length / 3;
      for (const [cx, cy, cz] of face.corners) {
        positions.push(b.x + cx * b.size, b.y + cy * b.size, b.z + cz * b.size);
        normals.push(...face.normal);
      }
      indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    }
  }
  const vertexCount = positions.length / 3;
  const posBytes = bytesOf(new Float32Array(positions));
  const normBytes = bytesOf(new Float32Array(normals));
  const idxBytes = bytesOf(new Uint16Array(indices));
  const bin = new Uint8Array(pad4(posBytes.length + normBytes.length + idxBytes.length));
  bin.set(posBytes, 0);
  bin.set(normBytes, posBytes.length);
  bin.set(idxBytes, posBytes.length + normBytes.length);

  const axis = (k: number): number[] => positions.filter((_, i) => i % 3 === k);
  const [r, g, bl] = paletteFor(job.index).accentRgb.map((v) => Math.round((v / 255) * 1000) / 1000);
  const gltf = {
    asset: { version: '2.0', generator: 'media-gen-emulator' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: `${job.modelSlug}-${job.index + 1}` }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: 0 }] }],
    materials: [{ pbrMetallicRoughness: { baseColorFactor: [r, g, bl, 1], metallicFactor: 0, roughnessFactor: 0.6 } }],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: posBytes.length, target: ARRAY_BUFFER },
      { buffer: 0, byteOffset: posBytes.length, byteLength: normBytes.length, target: ARRAY_BUFFER },
      {
        buffer: 0,
        byteOffset: posBytes.length + normBytes.length,
        byteLength: idxBytes.length,
        target: ELEMENT_ARRAY_BUFFER,
      },
    ],
    accessors: [
      {
        bufferView: 0,
        componentType: FLOAT,
        count: vertexCount,
        type: 'VEC3',
        min: [0, 1, 2].map((k) => Math.min(...axis(k))),
        max: [0, 1, 2].map((k) => Math.max(...axis(k))),
      },
      { bufferView: 1, componentType: FLOAT, count: vertexCount, type: 'VEC3' },
      { bufferView: 2, componentType: UNSIGNED_SHORT, count: indices.length, type: 'SCALAR' },
    ],
    // What the request was, readable by any glTF viewer's metadata panel.
    extras: {
      prompt: job.prompt.slice(0, 500),
      model: job.modelSlug,
      params: job.params,
      output: job.index + 1,
      identity: job.identityLabel,
    },
  };
  const jsonRaw = new TextEncoder().encode(JSON.stringify(gltf));
  const json = new Uint8Array(pad4(jsonRaw.length)).fill(0x20); // JSON chunk pads with spaces
  json.set(jsonRaw);

  const total = 12 + 8 + json.length + 8 + bin.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, json.length, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(json, 20);
  view.setUint32(20 + json.length, bin.length, true);
  view.setUint32(24 + json.length, CHUNK_BIN, true);
  out.set(bin, 28 + json.length);
  return out;
}
