/** Ids, tokens and the assetID counter (docs/decisions/0009-ids-tokens-and-asset-id.md). */
import { createHash, randomFillSync, timingSafeEqual } from 'node:crypto';

/** A call into OpenSSL costs more than 16 bytes: drawn from the same CSPRNG a pool at a time, each slice used once. */
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

function randomHex16(): string {
  if (poolOffset + 16 > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const hex = POOL.toString('hex', poolOffset, poolOffset + 16);
  POOL.fill(0, poolOffset, poolOffset + 16);
  poolOffset += 16;
  return hex;
}

export function newId(): string {
  return randomHex16();
}

/** Handed out once; only its hash is kept. */
export function newToken(): string {
  return randomHex16();
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The original kept SHA-512 digests whose token is unknown: kept as they are, a token sent later hashed alike. */
const SHA512_PREFIX = 'sha512:';

export const SHA512_DIGEST = /^[0-9a-fA-F]{128}$/;

/** A plain token (the original's owner tokens) is hashed as the registry hashes its own. */
export function originalTokenDigest(stored: string): string {
  return SHA512_DIGEST.test(stored) ? SHA512_PREFIX + stored.toLowerCase() : hashToken(stored);
}

function hashLike(token: string, hash: string): string {
  if (!hash.startsWith(SHA512_PREFIX)) return hashToken(token);
  return SHA512_PREFIX + createHash('sha512').update(token, 'utf8').digest('hex');
}

/** In constant time, so a caller cannot discover the hash byte by byte. */
export function tokenMatches(token: string, hash: string): boolean {
  const actual = Buffer.from(hashLike(token, hash), 'utf8');
  const expected = Buffer.from(hash, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** `UA-AR-DGF` + `2026-11-22` + 1 → `UA-AR-DGF-2026-11-22-000001` */
export function formatAssetId(prefix: string, day: string, index: number): string {
  return `${prefix}-${day}-${String(index).padStart(6, '0')}`;
}
