// The URL-signing secret kept in the store of record, so links survive a restart; a reset or an import makes a new one.
import type { SigningSecret } from '../infra/signer.js';

/** The store of record's key-value meta, as much of it as the secret needs. */
export interface MetaStore {
  readMeta(key: string): string | undefined;
  writeMeta(key: string, value: string): void;
}

const SIGNING_SECRET_META = 'signing_secret';

export interface KeptSigningSecret {
  /** Before the store is read: the secret kept with the state (undefined when none, or when the options fix one). */
  kept(): string | undefined;
  /** Once the store is open: signs with the kept secret again (older links still verify), or keeps the current one. */
  settle(kept: string | undefined): void;
  /** A new secret (a reset, an import), kept at once. */
  rotate(): void;
}

interface KeptSecretOptions {
  fixed: boolean;
  meta: () => MetaStore | undefined;
  log: (line: string) => void;
}

/** A class, not an object of closures: every world (each sandbox) holds one. */
class MetaKeptSecret implements KeptSigningSecret {
  constructor(
    private readonly secret: SigningSecret,
    private readonly options: KeptSecretOptions,
  ) {}

  kept() {
    return this.options.fixed ? undefined : this.options.meta()?.readMeta(SIGNING_SECRET_META);
  }

  settle(kept: string | undefined) {
    if (kept) this.secret.restore(kept);
    else this.keep();
  }

  rotate() {
    this.secret.rotate();
    this.keep();
  }

  private keep() {
    try {
      this.options.meta()?.writeMeta(SIGNING_SECRET_META, this.secret.current());
    } catch (error) {
      this.options.log(
        `the new signing secret could not be stored (${(error as Error).message}): links signed from now on will not survive a restart`,
      );
    }
  }
}

export const keptSigningSecret = (secret: SigningSecret, options: KeptSecretOptions): KeptSigningSecret =>
  new MetaKeptSecret(secret, options);
