/**
 * The document service's signatures (decisions.md §9), with Ed25519 from node:crypto. A download URL
 * `<base>/get/<key>?KeyID=<id>&Signature=<base64>` is signed over `<key>\0<md5 hex>`; `KeyID` is the first 8 hex
 * characters of the raw public key. The registry's own key pair lives in `DS_KEY_FILE` (PKCS #8 PEM), created on
 * first start; every node of a cluster uses the same file. An external document service is trusted through its
 * public keys (`DS_PUBLIC_KEYS`).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

/** A key that can sign (the registry's own), with its public half. */
export interface SigningKey {
  keyId: string;
  /** The raw 32-byte public key in hex, as `DS_PUBLIC_KEYS` would name it. */
  publicKeyHex: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** The first 8 hex characters of a raw public key: how a URL names the key it was signed with. */
export function keyIdOf(publicKeyHex: string): string {
  return publicKeyHex.slice(0, 8);
}

function rawPublicKeyHex(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  return Buffer.from(String(jwk.x), 'base64url').toString('hex');
}

/** An Ed25519 public key from its 32 raw bytes in hex. */
export function publicKeyFromHex(hex: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') }, format: 'jwk' });
}

function signingKeyOf(privateKey: KeyObject): SigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`the document service key must be Ed25519, not ${String(privateKey.asymmetricKeyType)}`);
  }
  const publicKey = createPublicKey(privateKey);
  const publicKeyHex = rawPublicKeyHex(publicKey);
  return { keyId: keyIdOf(publicKeyHex), publicKeyHex, privateKey, publicKey };
}

/**
 * Reads the key pair from `path`, creating it with a fresh key when there is none. The new file is written
 * whole under a temporary name, synced and linked into place, so that nodes starting together on one folder
 * end up with one key: the first link wins, the others read the winner's file.
 */
export function ensureSigningKey(path: string): { key: SigningKey; created: boolean } {
  try {
    return { key: signingKeyOf(createPrivateKey(readFileSync(path, 'utf8'))), created: false };
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
    return { key: signingKeyOf(createPrivateKey(readFileSync(path, 'utf8'))), created: false };
  } finally {
    unlinkSync(temporary);
  }
  return { key: signingKeyOf(privateKey), created: true };
}

/** The base64 Ed25519 signature of `message`. */
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

  /** Whether `signature` is the signature of `message` by the key `keyId` (false for an unknown key). */
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
