/**
 * Checkpoints (C2SP tlog-checkpoint) as signed notes (C2SP signed-note) with Ed25519, and the verifier key as
 * golang.org/x/mod/sumdb/note reads it: `<name>+<8 hex key id>+<base64(0x01 ‖ public key)>`
 * (docs/decisions/0067-checkpoints-signed-notes-and-the-log-key.md).
 */
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

const ED25519 = 0x01;
const SIGNATURE_LINE = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/;

export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
}

/** A note's key name: not empty, no space or `+` (the separator of the verifier key). */
function isKeyName(name: string): boolean {
  return /^[^\s+]+$/u.test(name);
}

function rawPublicKey(publicKey: KeyObject): Buffer {
  return Buffer.from(String(publicKey.export({ format: 'jwk' }).x), 'base64url');
}

function keyId(name: string, raw: Buffer): Buffer {
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${name}\n`, 'utf8'), Buffer.from([ED25519]), raw]))
    .digest()
    .subarray(0, 4);
}

export function verifierKey(name: string, publicKey: KeyObject): string {
  const raw = rawPublicKey(publicKey);
  return `${name}+${keyId(name, raw).toString('hex')}+${Buffer.concat([Buffer.from([ED25519]), raw]).toString('base64')}`;
}

export interface Verifier {
  name: string;
  id: Buffer;
  key: KeyObject;
}

/** `undefined` when the text is not an Ed25519 verifier key whose id matches its name and key. */
export function parseVerifierKey(text: string): Verifier | undefined {
  const [name = '', idHex = '', ...keyParts] = text.trim().split('+');
  const keyText = keyParts.join('+');
  if (!isKeyName(name) || !/^[0-9a-f]{8}$/.test(idHex)) return undefined;
  const material = Buffer.from(keyText, 'base64');
  if (material.length !== 33 || material[0] !== ED25519) return undefined;
  const raw = material.subarray(1);
  const id = keyId(name, raw);
  if (id.toString('hex') !== idHex) return undefined;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  return { name, id, key };
}

export function checkpointText({ origin, size, root }: Checkpoint): string {
  return `${origin}\n${size}\n${root.toString('base64')}\n`;
}

/** `undefined` unless the text is exactly a checkpoint's three lines (extension lines are allowed after them). */
export function parseCheckpoint(text: string): Checkpoint | undefined {
  const lines = text.split('\n');
  if (lines.length < 4 || lines[lines.length - 1] !== '') return undefined;
  const [origin, sizeText, rootText] = lines as [string, string, string];
  if (origin === '' || !/^(?:0|[1-9]\d{0,15})$/.test(sizeText)) return undefined;
  const root = Buffer.from(rootText, 'base64');
  if (root.length !== 32 || root.toString('base64') !== rootText) return undefined;
  return { origin, size: Number(sizeText), root };
}

/** The note: the text, a blank line, one signature line by `name`. */
export function signNote(text: string, name: string, privateKey: KeyObject): string {
  const raw = rawPublicKey(createPublicKey(privateKey));
  const signature = sign(null, Buffer.from(text, 'utf8'), privateKey);
  return `${text}\n\u2014 ${name} ${Buffer.concat([keyId(name, raw), signature]).toString('base64')}\n`;
}

/** The signed text when a signature line of the note is the verifier's and verifies; `undefined` otherwise. */
export function openNote(note: string, verifier: Verifier): string | undefined {
  const split = note.lastIndexOf('\n\n');
  if (split === -1 || !note.endsWith('\n')) return undefined;
  const text = note.slice(0, split + 1);
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const match = SIGNATURE_LINE.exec(line);
    if (match === null || match[1] !== verifier.name) continue;
    const bytes = Buffer.from(match[2]!, 'base64');
    if (bytes.length !== 68 || !bytes.subarray(0, 4).equals(verifier.id)) continue;
    if (verify(null, Buffer.from(text, 'utf8'), verifier.key, bytes.subarray(4))) return text;
  }
  return undefined;
}
