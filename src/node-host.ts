// Node's host services for the composition root: node:crypto, the disk, the --state-file (src/emulator-host.ts).
import { availableParallelism } from 'node:os';
import type { EmulatorHost } from './emulator-host.js';
import { nodeCrypto } from './infra/node/node-crypto.js';
import { createDiskUploadBlobs } from './infra/node/disk-upload-blobs.js';
import { nodeInflatedLength } from './infra/node/inflated-length.js';
import { stateFileStore } from './store/node/state-file.js';
import { loadCatalogue } from './wiring/node/catalogue-file.js';

export function nodeHost(): EmulatorHost {
  return {
    crypto: nodeCrypto,
    parallelism: availableParallelism,
    readCatalogue: (path) => loadCatalogue(path),
    // Uploads are kept beside a state file (and fsynced), so they survive with it; otherwise in a temporary folder.
    uploadBlobs: (options) =>
      createDiskUploadBlobs({
        dir: options.stateFile ? `${options.stateFile}.uploads` : undefined,
        maxBytes: options.maxUploadStoreBytes,
        durable: options.stateFile !== undefined,
      }),
    openStore: stateFileStore,
    inflatedLength: nodeInflatedLength,
  };
}
