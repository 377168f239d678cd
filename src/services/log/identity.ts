/**
 * Who signs the log: the Ed25519 key of `LOG_KEY_FILE` and the origin its checkpoints name
 * (docs/decisions/0067-checkpoints-signed-notes-and-the-log-key.md).
 */
import { createHash, type KeyObject } from 'node:crypto';
import { API_PREFIX } from '../../contract/document.js';
import { verifierKey } from '../../domain/log/note.js';
import type { SigningKey } from '../signing.js';

export interface LogIdentity {
  origin: string;
  /** `<origin>+<key id>+<public key>`: what verifiers are given, out of band. */
  vkey: string;
  privateKey: KeyObject;
}

export interface LogIdentitySettings {
  origin: string | undefined;
  publicUrl: string | undefined;
}

/** `LOG_ORIGIN`, else `PUBLIC_URL`'s host and path with the log's path, else a name made from the key. */
export function logIdentity(key: SigningKey, { origin, publicUrl }: LogIdentitySettings): LogIdentity {
  let name = origin;
  if (name === undefined && publicUrl !== undefined) {
    const url = new URL(publicUrl);
    name = `${url.host}${url.pathname.replace(/\/$/, '')}${API_PREFIX}/log`;
  }
  name ??= `claimrights-registry.invalid/${createHash('sha256').update(Buffer.from(key.publicKeyHex, 'hex')).digest('hex').slice(0, 16)}`;
  return { origin: name, vkey: verifierKey(name, key.publicKey), privateKey: key.privateKey };
}
