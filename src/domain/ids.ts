/** Identifiers, owner tokens and the human-facing assetID. */
import { createHash, randomFillSync, timingSafeEqual } from 'node:crypto';

/*
 * 16 random bytes as hex. Each call of randomBytes(16) is a round trip into OpenSSL that costs more than the
 * bytes; a creation needs several ids, so the bytes are drawn from the same CSPRNG 4 KiB at a time and each
 * slice is used once.
 */
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

/** A fresh asset or item id: 32 lowercase hex characters (128 random bits, like the original's uuid4().hex). */
export function newId(): string {
  return randomHex16();
}

/** A fresh owner token: 32 lowercase hex characters. It is handed out once and only its hash is kept. */
export function newToken(): string {
  return randomHex16();
}

/** The stored form of an owner or transfer token: SHA-256, lowercase hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Digests imported from the original registry, which kept SHA-512 hex digests (its transfer tokens, and the owner
 * tokens an ownership change gave): `sha512:` + the digest. The plain token is unknown, so the digest is kept as it
 * is and a token sent later is hashed the same way to be compared.
 */
const SHA512_PREFIX = 'sha512:';

/** A SHA-512 digest as the original stored it: 128 hexadecimal characters. */
export const SHA512_DIGEST = /^[0-9a-fA-F]{128}$/;

/**
 * The stored form of a token as the original kept it: a SHA-512 hex digest is kept as such (prefixed), a plain
 * token (the original's owner tokens, 32 hex characters) is hashed as the registry hashes its own.
 */
export function originalTokenDigest(stored: string): string {
  return SHA512_DIGEST.test(stored) ? SHA512_PREFIX + stored.toLowerCase() : hashToken(stored);
}

/** `token` hashed the way `hash` was made: SHA-512 for digests imported from the original, else SHA-256. */
function hashLike(token: string, hash: string): string {
  if (!hash.startsWith(SHA512_PREFIX)) return hashToken(token);
  return SHA512_PREFIX + createHash('sha512').update(token, 'utf8').digest('hex');
}

/**
 * Whether `token` is the one whose hash is `hash`. The comparison takes the same time wherever the first
 * difference is, so a caller cannot discover the hash byte by byte.
 */
export function tokenMatches(token: string, hash: string): boolean {
  const actual = Buffer.from(hashLike(token, hash), 'utf8');
  const expected = Buffer.from(hash, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** `UA-AR-DGF` + `2026-11-22` + 1 → `UA-AR-DGF-2026-11-22-000001` (the counter is zero-padded to six digits). */
export function formatAssetId(prefix: string, day: string, index: number): string {
  return `${prefix}-${day}-${String(index).padStart(6, '0')}`;
}
