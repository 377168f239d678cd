/** The document service's signatures, Ed25519 (docs/decisions/0032-signed-document-urls.md). */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

export interface SigningKey {
  keyId: string;
  /** The raw 32-byte public key in hex, as `DS_PUBLIC_KEYS` names keys. */
  publicKeyHex: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** How a URL names the key it was signed with. */
export function keyIdOf(publicKeyHex: string): string {
  return publicKeyHex.slice(0, 8);
}

function rawPublicKeyHex(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  return Buffer.from(String(jwk.x), 'base64url').toString('hex');
}

export function publicKeyFromHex(hex: string): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') },
    format: 'jwk',
  });
}

function signingKeyOf(privateKey: KeyObject, what: string): SigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`${what} must be Ed25519, not ${String(privateKey.asymmetricKeyType)}`);
  }
  const publicKey = createPublicKey(privateKey);
  const publicKeyHex = rawPublicKeyHex(publicKey);
  return { keyId: keyIdOf(publicKeyHex), publicKeyHex, privateKey, publicKey };
}

/**
 * Written whole under a temporary name (mode 0600), synced, linked: nodes starting together end up with the first
 * link's key. `what` names the key in errors.
 */
export function ensureSigningKey(
  path: string,
  what = 'the document service key',
): { key: SigningKey; created: boolean } {
  try {
    return { key: signingKeyOf(createPrivateKey(readFileSync(path, 'utf8')), what), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, pem);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: signingKeyOf(createPrivateKey(readFileSync(path, 'utf8')), what), created: false };
  } finally {
    unlinkSync(temporary);
  }
  return { key: signingKeyOf(privateKey, what), created: true };
}

export function signText(key: SigningKey, message: string): string {
  return sign(null, Buffer.from(message, 'utf8'), key.privateKey).toString('base64');
}

/** Public keys by KeyID: what verifies the URLs of one document service. */
export class Keyring {
  private readonly keys: Map<string, KeyObject>;

  constructor(publicKeysHex: readonly string[]) {
    this.keys = new Map(publicKeysHex.map((hex) => [keyIdOf(hex), publicKeyFromHex(hex)]));
  }

  has(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  /** False for an unknown key, or a signature that is not one. */
  verifies(keyId: string, message: string, signature: Buffer): boolean {
    const key = this.keys.get(keyId);
    if (key === undefined) return false;
    try {
      return verify(null, Buffer.from(message, 'utf8'), key, signature);
    } catch {
      return false;
    }
  }
}
