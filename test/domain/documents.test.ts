/**
 * The rules of documents as pure functions: docs/decisions/0030-documents-inside-the-asset-record.md,
 * docs/decisions/0032-signed-document-urls.md.
 */
import { describe, expect, it } from 'vitest';
import {
  allVersions,
  applyDocumentPatch,
  buildNewDocument,
  buildNextVersion,
  documentWriteRefusal,
  MAX_DOCUMENT_VERSIONS,
  md5Hex,
  parseDownloadUrl,
  previousVersions,
  signatureBytes,
  signedMessage,
  versionLimitRefusal,
  withAddedDocument,
  withNewVersion,
  withPatchedDocument,
  type DocumentSet,
} from '../../src/domain/documents.js';
import { md5HashProblem } from '../../src/contract/formats.js';
import { checkDocument, checkDocumentInput } from '../../src/domain/validation.js';
import type { JsonObject } from '../../src/domain/json.js';
import { STATUSES, type Role } from '../../src/domain/workflow.js';
import { micros } from '../helpers/dates.js';

const ROLES: Role[] = ['owner', 'brokers', 'concierge', 'admins'];
const NOW = '2026-11-22T12:30:17.615196+02:00';
const LATER = '2026-11-22T12:31:00.000001+02:00';

function refusal(role: Role, status: (typeof STATUSES)[number], document?: JsonObject) {
  const error = documentWriteRefusal(role, status, document);
  return error === undefined ? undefined : { status: error.statusCode, ...error.errors[0] };
}

describe('who may write documents, and when', () => {
  it.each(ROLES.flatMap((role) => STATUSES.map((status) => [role, status] as const)))('%s in %s', (role, status) => {
    const expected =
      role !== 'owner' && role !== 'admins'
        ? { status: 403, location: 'url', name: 'permission', description: 'Forbidden' }
        : status !== 'draft' && status !== 'pending'
          ? {
              status: 403,
              location: 'body',
              name: 'data',
              description: `Can't update document in current (${status}) asset status`,
            }
          : undefined;
    expect(refusal(role, status)).toEqual(expected);
  });

  it('lets only the author change a document; one without author counts as the owner’s', () => {
    const onlyAuthor = { status: 403, location: 'url', name: 'role', description: 'Can update document only author' };
    expect(refusal('owner', 'pending', { author: 'asset_owner' })).toBeUndefined();
    expect(refusal('admins', 'pending', { author: 'admins' })).toBeUndefined();
    expect(refusal('admins', 'pending', { author: 'asset_owner' })).toEqual(onlyAuthor);
    expect(refusal('owner', 'draft', { author: 'admins' })).toEqual(onlyAuthor);
    expect(refusal('owner', 'draft', {})).toBeUndefined();
    expect(refusal('admins', 'draft', {})).toEqual(onlyAuthor);
    // Permission, then status, then authorship.
    expect(refusal('brokers', 'active', { author: 'admins' })?.name).toBe('permission');
    expect(refusal('owner', 'active', { author: 'admins' })?.name).toBe('data');
  });
});

describe('building versions', () => {
  it('a new document: generated fields win, documentOf defaults to asset, null means not sent, fields in order', () => {
    const document = buildNewDocument(
      {
        url: 'u',
        hash: 'h',
        title: 't',
        format: 'f',
        id: 'x',
        author: 'admins',
        datePublished: 'd',
        dateModified: 'd',
        description: null,
      },
      { id: 'a'.repeat(32), author: 'asset_owner', now: NOW },
    );
    expect(document).toEqual({
      id: 'a'.repeat(32),
      title: 't',
      format: 'f',
      documentOf: 'asset',
      url: 'u',
      hash: 'h',
      datePublished: NOW,
      dateModified: NOW,
      author: 'asset_owner',
    });
    expect(Object.keys(document)).toEqual([
      'id',
      'title',
      'format',
      'documentOf',
      'url',
      'hash',
      'datePublished',
      'dateModified',
      'author',
    ]);
    expect(buildNewDocument({ documentOf: 'lot' }, { id: 'b', author: 'admins', now: NOW }).documentOf).toBe('lot');
  });

  it('a new version keeps id, datePublished and author, inherits what need not be resent, takes the rest as sent', () => {
    const previous: JsonObject = {
      id: 'a'.repeat(32),
      title: 'old.pdf',
      description: 'kept',
      format: 'application/pdf',
      documentType: 'notice',
      documentOf: 'lot',
      url: 'old-url',
      hash: 'md5:old',
      language: 'uk',
      datePublished: NOW,
      dateModified: NOW,
      author: 'admins',
    };
    const next = buildNextVersion(
      previous,
      { title: 'new.pdf', url: 'new-url', hash: 'md5:new', language: 'en', id: 'x', author: 'asset_owner' },
      LATER,
    );
    expect(next).toEqual({
      id: 'a'.repeat(32),
      title: 'new.pdf',
      description: 'kept',
      documentType: 'notice',
      documentOf: 'lot',
      url: 'new-url',
      hash: 'md5:new',
      language: 'en',
      datePublished: NOW,
      dateModified: LATER,
      author: 'admins',
    });
    // format was not resent: it is not inherited, so validation asks for it.
    expect(next).not.toHaveProperty('format');
  });

  it('a PATCH edits in place and ignores the file, the dates, the id and the author', () => {
    const current: JsonObject = {
      id: 'a',
      title: 't',
      format: 'f',
      url: 'u',
      hash: 'h',
      datePublished: NOW,
      dateModified: NOW,
      author: 'asset_owner',
    };
    expect(
      applyDocumentPatch(current, {
        title: 'T',
        url: 'x',
        hash: 'y',
        id: 'z',
        dateModified: LATER,
        datePublished: LATER,
        author: 'admins',
        language: 'uk',
      }),
    ).toEqual({ ...current, title: 'T', language: 'uk' });
  });
});

describe('the versions of an asset', () => {
  const doc = (id: string, title: string, dateModified: string): JsonObject => ({ id, title, dateModified });

  it('a new version moves its document to the end of the latest ones, the old one to the end of the history', () => {
    let set: DocumentSet = { latest: [], history: [] };
    const a1 = doc('a', 'a1', '2026-03-29T02:59:00.000000+02:00');
    const b1 = doc('b', 'b1', '2026-03-29T02:59:30.000000+02:00');
    // After the switch to summer time: the text sorts before the earlier dates, the moment after them.
    const a2 = doc('a', 'a2', '2026-03-29T04:00:00.000000+03:00');
    set = withAddedDocument(withAddedDocument(set, a1), b1);
    set = withNewVersion(set, a2);
    expect(set).toEqual({ latest: [b1, a2], history: [a1] });
    expect(previousVersions(set, 'a')).toEqual([a1]);
    expect(previousVersions(set, 'b')).toEqual([]);
    expect(allVersions(set, micros)).toEqual([a1, b1, a2]);
    const edited = { ...a2, title: 'a2 edited' };
    expect(withPatchedDocument(set, edited)).toEqual({ latest: [b1, edited], history: [a1] });
  });

  it(`keeps at most ${MAX_DOCUMENT_VERSIONS} versions`, () => {
    const versions = Array.from({ length: MAX_DOCUMENT_VERSIONS - 1 }, (_, i) => doc(String(i), 't', NOW));
    expect(versionLimitRefusal({ latest: versions.slice(0, 10), history: versions.slice(10) })).toBeUndefined();
    const full = { latest: [...versions, doc('x', 't', NOW)], history: [] };
    expect(versionLimitRefusal(full)?.errors).toEqual([
      {
        location: 'body',
        name: 'data',
        description: `An asset keeps at most ${MAX_DOCUMENT_VERSIONS} document versions`,
      },
    ]);
  });
});

describe('download URLs of a document service', () => {
  const base = 'http://127.0.0.1:6543/api/0.1/ds';
  const key = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';

  it('reads <base>/get/<key>?KeyID&Signature, in either order', () => {
    expect(parseDownloadUrl(`${base}/get/${key}?KeyID=abcd1234&Signature=a%2Bb%3D%3D`, base)).toEqual({
      key,
      keyId: 'abcd1234',
      signature: 'a+b==',
    });
    expect(parseDownloadUrl(`${base}/get/${key}?Signature=s&KeyID=k`, base)).toEqual({
      key,
      keyId: 'k',
      signature: 's',
    });
  });

  it.each([
    ['another base', `http://127.0.0.1:6544/api/0.1/ds/get/${key}?KeyID=k&Signature=s`],
    ['another path', `${base}/got/${key}?KeyID=k&Signature=s`],
    ['a deeper path', `${base}/get/x/${key}?KeyID=k&Signature=s`],
    ['no key', `${base}/get/?KeyID=k&Signature=s`],
    ['no query', `${base}/get/${key}`],
    ['a missing parameter', `${base}/get/${key}?KeyID=k`],
    ['an extra parameter', `${base}/get/${key}?KeyID=k&Signature=s&Expires=1`],
    ['a repeated parameter', `${base}/get/${key}?KeyID=k&KeyID=k&Signature=s`],
    ['a fragment', `${base}/get/${key}?KeyID=k&Signature=s#x`],
    ['an encoded slash in the key', `${base}/get/a%2Fb?KeyID=k&Signature=s`],
    ['a base that only starts the same', `${base}x/get/${key}?KeyID=k&Signature=s`],
  ])('refuses %s', (_case, url) => {
    expect(parseDownloadUrl(url, base)).toBeUndefined();
  });

  it('decodes signatures: base64 only; an unencoded + and a double encoding are understood', () => {
    expect(signatureBytes('AAEC/w==')).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(signatureBytes('AAEC w==')).toEqual(Buffer.from([0, 1, 2, 0xfb]));
    expect(signatureBytes('AAEC%2Fw%3D%3D')).toEqual(Buffer.from([0, 1, 2, 255]));
    for (const bad of ['', '***', 'AAE', 'AA=A', 'AAEC/w=', '%zz', 'AAEC_w=='])
      expect(signatureBytes(bad), bad).toBeUndefined();
  });

  it('signs the key, a zero byte and the MD5 in hex', () => {
    expect(signedMessage(key, md5Hex('md5:9e107d9d372bb6826bd81d3542a419d6'))).toBe(
      `${key}\u00009e107d9d372bb6826bd81d3542a419d6`,
    );
  });
});

describe('document hashes and fields', () => {
  it.each([
    ['md5:9e107d9d372bb6826bd81d3542a419d6', undefined],
    ['md5:9E107D9D372BB6826BD81D3542A419D6', undefined],
    [`sha256:${'a'.repeat(64)}`, 'Hash type is not supported.'],
    ['9e107d9d372bb6826bd81d3542a419d6', 'Hash type is not supported.'],
    [':9e107d9d372bb6826bd81d3542a419d6', 'Hash type is not supported.'],
    ['md5:9e107d9d', 'Hash value is wrong length.'],
    ['md5:9e107d9d372bb6826bd81d3542a419dz', 'Hash value is not hexadecimal.'],
  ])('%s: %s', (hash, problem) => {
    expect(md5HashProblem(hash)).toBe(problem);
  });

  it('judges a document version: conversion first, then the rules', () => {
    const valid = {
      id: 'a'.repeat(32),
      title: 't',
      format: 'application/pdf',
      url: 'http://x.example/get/k?KeyID=a&Signature=b',
      hash: `md5:${'a'.repeat(32)}`,
      documentOf: 'asset',
      datePublished: NOW,
      dateModified: NOW,
      author: 'asset_owner',
    };
    expect(checkDocument(valid)).toEqual([]);
    expect(checkDocumentInput({ hash: 'sha1:x', extra: 1 })).toEqual([
      { location: 'body', name: 'hash', description: ['Hash type is not supported.'] },
      { location: 'body', name: 'extra', description: 'Rogue field' },
    ]);
    // The input stage does not judge choices (the whole version does).
    expect(checkDocumentInput({ documentType: 'poem' })).toEqual([]);
    expect(checkDocument({ ...valid, documentType: 'poem' })).toEqual([
      {
        location: 'body',
        name: 'documentType',
        description: [
          "Value must be one of ['notice', 'technicalSpecifications', 'illustration', 'virtualDataRoom', 'x_presentation'].",
        ],
      },
    ]);
  });
});
