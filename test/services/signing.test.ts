/** The document service's key pair and signatures (Ed25519, node:crypto). */
import { fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureSigningKey, Keyring, keyIdOf, signText } from '../../src/services/signing.js';

const folder = () => mkdtempSync(join(tmpdir(), 'registry-signing-'));

describe('the key file (DS_KEY_FILE)', () => {
  it('is created on first start, readable by its owner only, and read again afterwards', () => {
    const path = join(folder(), 'nested', 'ds-key.pem');
    const first = ensureSigningKey(path);
    expect(first.created).toBe(true);
    expect(readFileSync(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(first.key.publicKeyHex).toMatch(/^[0-9a-f]{64}$/);
    expect(first.key.keyId).toBe(first.key.publicKeyHex.slice(0, 8));
    const again = ensureSigningKey(path);
    expect(again.created).toBe(false);
    expect(again.key.publicKeyHex).toBe(first.key.publicKeyHex);
    // No temporary file is left beside it.
    expect(readdirSync(join(path, '..'))).toEqual(['ds-key.pem']);
  });

  it('ends up as one key when several processes start together on one folder', async () => {
    const path = join(folder(), 'ds-key.pem');
    const script = join(folder(), 'start.mjs');
    writeFileSync(
      script,
      `import { ensureSigningKey } from ${JSON.stringify(new URL('../../src/services/signing.ts', import.meta.url).pathname)};\n` +
        `process.send(ensureSigningKey(process.argv[2]).key.publicKeyHex);\n`,
    );
    const keys = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<string>((resolve, reject) => {
            const child = fork(script, [path], { execArgv: ['--import', 'tsx'] });
            child.once('message', (message) => resolve(String(message)));
            child.once('error', reject);
          }),
      ),
    );
    expect(new Set(keys).size).toBe(1);
    expect(ensureSigningKey(path).key.publicKeyHex).toBe(keys[0]);
  }, 60_000);

  it('refuses a key file that holds another kind of key', () => {
    const path = join(folder(), 'rsa.pem');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    writeFileSync(path, privateKey.export({ format: 'pem', type: 'pkcs8' }));
    expect(() => ensureSigningKey(path)).toThrow('must be Ed25519');
  });
});

describe('signatures', () => {
  const { key } = ensureSigningKey(join(folder(), 'ds-key.pem'));
  const other = ensureSigningKey(join(folder(), 'ds-key.pem')).key;

  it('verify with the public key of their KeyID only, and only for the signed message', () => {
    const signature = Buffer.from(signText(key, 'k\u0000abc'), 'base64');
    expect(signature.length).toBe(64);
    const keyring = new Keyring([other.publicKeyHex, key.publicKeyHex]);
    expect(keyring.has(key.keyId)).toBe(true);
    expect(keyring.has('00000000')).toBe(false);
    expect(keyring.verifies(key.keyId, 'k\u0000abc', signature)).toBe(true);
    expect(keyring.verifies(key.keyId, 'k\u0000abd', signature)).toBe(false);
    expect(keyring.verifies(other.keyId, 'k\u0000abc', signature)).toBe(false);
    expect(keyring.verifies('00000000', 'k\u0000abc', signature)).toBe(false);
    expect(keyring.verifies(key.keyId, 'k\u0000abc', signature.subarray(0, 63))).toBe(false);
    expect(keyIdOf(key.publicKeyHex)).toBe(key.keyId);
  });
});
