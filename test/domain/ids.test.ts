import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatAssetId, hashToken, newId, newToken, tokenMatches } from '../../src/domain/ids.js';

describe('newId and newToken', () => {
  it('are 32 lowercase hex characters', () => {
    for (let i = 0; i < 50; i++) {
      expect(newId()).toMatch(/^[0-9a-f]{32}$/);
      expect(newToken()).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('do not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, newId));
    const tokens = new Set(Array.from({ length: 1000 }, newToken));
    expect(ids.size).toBe(1000);
    expect(tokens.size).toBe(1000);
  });
});

describe('hashToken', () => {
  it('is the SHA-256 of the token in lowercase hex', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const token = newToken();
    expect(hashToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it('never contains the token itself', () => {
    const token = newToken();
    expect(hashToken(token)).not.toContain(token);
  });
});

describe('tokenMatches', () => {
  it('accepts the token whose hash is stored', () => {
    const token = newToken();
    expect(tokenMatches(token, hashToken(token))).toBe(true);
  });

  it('refuses another token, a truncated or extended hash, and the token in place of its hash', () => {
    const token = newToken();
    const hash = hashToken(token);
    expect(tokenMatches(newToken(), hash)).toBe(false);
    expect(tokenMatches(token, hash.slice(0, 63))).toBe(false);
    expect(tokenMatches(token, `${hash}zz`)).toBe(false);
    expect(tokenMatches(token, hash.toUpperCase())).toBe(false);
    expect(tokenMatches(token, token)).toBe(false);
    expect(tokenMatches('', '')).toBe(false);
  });
});

describe('formatAssetId', () => {
  it('joins prefix, day and a six-digit counter', () => {
    expect(formatAssetId('UA-AR-DGF', '2026-11-22', 1)).toBe('UA-AR-DGF-2026-11-22-000001');
    expect(formatAssetId('UA-AR-DGF', '2018-01-09', 123456)).toBe('UA-AR-DGF-2018-01-09-123456');
  });

  it('keeps counting past six digits instead of wrapping', () => {
    expect(formatAssetId('X', '2026-01-01', 1234567)).toBe('X-2026-01-01-1234567');
  });
});
