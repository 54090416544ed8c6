// The services an emulator takes from its host (Node or a browser): hashing, files, its SQLite. Node's are node-host.ts.
import type { ResolvedOptions } from './config.js';
import type { Catalogue } from './domain/catalogue.js';
import type { HostCrypto } from './infra/host-crypto.js';
import type { InflatedLength } from './infra/inflated-length.js';
import type { UploadBlobs } from './infra/upload-blobs.js';
import type { StoreFactory } from './store/store-of-record.js';

export interface EmulatorHost {
  /** SHA-256, HMAC-SHA256 (signed links, cursor tags), a constant-time compare and random bytes, all synchronous. */
  crypto: HostCrypto;
  /** How many renders run side by side when `maxParallelRenders` is not set. */
  parallelism: () => number;
  /** The catalogue file the `catalogue` option names, or the one shipped when it names none. */
  readCatalogue: (path: string | undefined) => Catalogue;
  /** Where reference uploads' bytes are kept, under `maxUploadStoreBytes`. */
  uploadBlobs: (options: ResolvedOptions) => UploadBlobs;
  /** The store of record: the SQLite the host opens, under the same schema and statements. */
  openStore: StoreFactory;
  /** What zlib data inflates to, within a limit: the check that an uploaded PNG's pixel data is all there. */
  inflatedLength: InflatedLength;
}
