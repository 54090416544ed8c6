// Node's host crypto (src/infra/host-crypto.ts): node:crypto, whose HMAC and hashes are native.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { HostCrypto } from '../host-crypto.js';

export const nodeCrypto: HostCrypto = {
  sha256Hex: (data) => createHash('sha256').update(data).digest('hex'),
  hmacSha256Hex: (key, message) => createHmac('sha256', key).update(message).digest('hex'),
  randomBytes: (length) => randomBytes(length),
};
