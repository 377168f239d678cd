/**
 * The documentation page works offline: nothing in the page, its files or the document it renders makes a browser
 * load from another host. The hosts swagger-ui's bundle names are listed below with the reason each is not loaded:
 * a new one (a package update) fails the test until checked.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.js';
import { PACKAGE_FILES, START_SCRIPT_NAME } from '../../src/plugins/docs-page.js';

/** Hosts named in the page's files that the page never loads from, with the reason. */
const NOT_LOADED: Record<string, string> = {
  'www.w3.org': 'XML namespace names (SVG, XLink) and DTD identifiers',
  'json-schema.org': 'JSON Schema dialect identifiers, compared as strings',
  'spec.openapis.org': 'OpenAPI dialect identifiers, compared as strings',
  'datatracker.ietf.org': 'RFC references in grammar comments',
  'www.rfc-editor.org': 'RFC references in grammar comments',
  'github.com': 'licence and issue links in comments and metadata',
  'reactjs.org': "link in React's error messages",
  'redux.js.org': "link in Redux's error messages",
  'fb.me': "link in React's warnings",
  'example.com': 'sample values that example generation gives `format: uri` strings',
  '실례.com': 'sample value that example generation gives `format: iri` strings',
  'twitter.com': 'link target the Markdown autolinker makes of hashtags and mentions',
  'www.facebook.com': 'link target the Markdown autolinker makes of hashtags',
  'instagram.com': 'link target the Markdown autolinker makes of hashtags and mentions',
  'www.tiktok.com': 'link target the Markdown autolinker makes of hashtags',
  'soundcloud.com': 'link target the Markdown autolinker makes of mentions',
  'spdx.org': "link to a licence's text when a document names an SPDX identifier (this one does not)",
  'swagger.io': 'a base URL for resolving relative references as strings',
  'vladimirgorej.com': 'a base URL for checking that a server URL parses',
  base: 'a made-up base URL for sanitising links',
  'validator.swagger.io': "the online validator badge's default address, turned off by start.js (validatorUrl: null)",
};

/** Hosts named in the served document, all in text the page shows and never loads. */
const DOCUMENT_HOSTS: Record<string, string> = {
  '127.0.0.1': 'the address of a registry started with `npm start`, in examples and in the description of `servers`',
  'www.dus.gov.ua': "example value of an organisation's `uri`",
  'example.org': "example value of a classification's `uri`",
};

/** What would make swagger-ui load from the document's content: Markdown images, embedded HTML, logo extensions. */
const LOADING_MARKUP = /!\[[^\]]*\]\(|<\s*(?:img|script|iframe|link|object|embed|video|audio|source)\b|url\(/i;

/** Every string of a JSON value with the key it sits under (the parent's key for list elements). */
function* strings(value: unknown, key = ''): Generator<[key: string, text: string]> {
  if (typeof value === 'string') yield [key, value];
  else if (Array.isArray(value)) for (const element of value) yield* strings(element, key);
  else if (value !== null && typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) yield* strings(inner, name);
  }
}

/** Every key of a JSON value, nested ones too. */
function* keys(value: unknown): Generator<string> {
  if (Array.isArray(value)) for (const element of value) yield* keys(element);
  else if (value !== null && typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) {
      yield name;
      yield* keys(inner);
    }
  }
}

/** What a browser loads from: attributes of the page, and the references of a style sheet. */
const PAGE_REFERENCE = /\s(?:src|href)\s*=\s*"([^"]*)"/gi;
const CSS_REFERENCE = /url\(\s*(['"]?)([^'")]*)\1\s*\)|@import\s+(['"])([^'"]*)\3/gi;
const SOURCE_MAP = /[#@] sourceMappingURL=(\S+?)\s*(?:\*\/)?\s*$/m;
/** Loading code with a literal absolute address: none may be left once swagger-ui's validator is off. */
const ABSOLUTE_LOAD =
  /(?:\bsrc\s*[:=]\s*|\burl\(\s*|@import\s+|\bfetch\(\s*|importScripts\(\s*|new Worker\(\s*)["'`]?(?:https?:)?\/\//gi;
const HOST = /https?:\/\/([^\s"'`/)?#:$\\<>]+)/g;

const isRelative = (reference: string): boolean =>
  !/^[a-z][a-z0-9+.-]*:/i.test(reference) && !reference.startsWith('//');

interface Served {
  url: string;
  type: string;
  text: string;
}

// Real HTTP: the page and its files are fetched by their addresses, as a browser loads them.
const server = useServer({}, { via: 'http' });
let pageUrl: string;
let page: string;
/** Every file the page uses, by its absolute URL, as the registry served it. */
const served = new Map<string, Served>();

async function fetchServed(url: string): Promise<Served> {
  const res = await fetch(url);
  const text = await res.text();
  expect(res.status, `GET ${url}`).toBe(200);
  expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
  return { url, type: res.headers.get('content-type') ?? '', text };
}

beforeAll(async () => {
  pageUrl = `${server.url}/api/0.1/docs`;
  const res = await server.anonymous.get('/api/0.1/docs');
  expect(res.status).toBe(200);
  page = res.text;

  // The page's references, then the style sheets' references and the source maps the files name.
  const queue = [...page.matchAll(PAGE_REFERENCE)].map((m) => m[1]!);
  for (const reference of queue) expect(isRelative(reference), `the page refers to ${reference}`).toBe(true);
  const pending = queue.map((reference) => new URL(reference, pageUrl).href);
  while (pending.length > 0) {
    const url = pending.shift()!;
    if (served.has(url)) continue;
    const file = await fetchServed(url);
    served.set(url, file);
    const references: string[] = [];
    if (file.type.startsWith('text/css')) {
      for (const m of file.text.matchAll(CSS_REFERENCE)) references.push(m[2] ?? m[4]!);
    }
    const map = SOURCE_MAP.exec(file.text.slice(-500));
    if (map && !url.endsWith('.map')) references.push(map[1]!);
    for (const reference of references.filter((r) => !r.startsWith('data:'))) {
      expect(isRelative(reference), `${url} refers to ${reference}`).toBe(true);
      pending.push(new URL(reference, url).href);
    }
  }
}, 60_000);

const docsFile = (name: string) => `${server.url}/api/0.1/docs/${name}`;

describe('the documentation page (swagger-ui-dist, served by the registry)', () => {
  it('the page uses swagger-ui from the registry, and the registry serves every file it refers to', () => {
    expect(page).toContain('<div id="swagger-ui"></div>');
    expect([...served.keys()].sort()).toEqual([...PACKAGE_FILES, START_SCRIPT_NAME].map(docsFile).sort());
    expect(served.get(docsFile('swagger-ui-bundle.js'))!.type).toMatch(/^(application|text)\/javascript/);
    expect(served.get(docsFile(START_SCRIPT_NAME))!.type).toBe('text/javascript; charset=utf-8');
    expect(served.get(docsFile('swagger-ui.css'))!.type).toMatch(/^text\/css/);
    expect(served.get(docsFile('favicon-32x32.png'))!.type).toBe('image/png');
    expect(served.get(docsFile('swagger-ui.css.map'))!.type).toMatch(/^application\/json/);
  });

  it("renders the document the registry serves, with swagger-ui's online validator off", async () => {
    const start = served.get(docsFile(START_SCRIPT_NAME))!.text;
    expect(start).toContain('validatorUrl: null');
    const documentReference = /url: new URL\('([^']+)', document\.baseURI\)/.exec(start);
    expect(documentReference, 'start.js names the document relative to the page').not.toBeNull();
    const documentUrl = new URL(documentReference![1]!, pageUrl).href;
    expect(documentUrl).toBe(`${server.url}/api/0.1/openapi.json`);
    const res = await fetch(documentUrl);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it("the page's Content-Security-Policy lets a browser load from and connect to the registry only", () => {
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page);
    expect(policy, 'the page carries a Content-Security-Policy').not.toBeNull();
    const directives = new Map(
      policy![1]!.split(';').map((directive) => {
        const [name, ...sources] = directive.trim().split(/\s+/);
        return [name!, sources] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    for (const [name, sources] of directives) {
      for (const source of sources) {
        expect(["'self'", "'none'", "'unsafe-inline'", 'data:'], `${name} ${source}`).toContain(source);
      }
    }
  });

  it('no file the page loads names another host to load from; every host it names is a known non-load', () => {
    const files: Served[] = [{ url: pageUrl, type: 'text/html', text: page }, ...served.values()];
    const unexplained = new Set<string>();
    // Source maps are read by developer tools only: they hold the original sources, comments and all.
    for (const file of files.filter((f) => !f.url.endsWith('.map'))) {
      expect(file.text.match(ABSOLUTE_LOAD), `${file.url} loads from an absolute address`).toBeNull();
      for (const m of file.text.matchAll(HOST)) {
        if (!(m[1]! in NOT_LOADED)) unexplained.add(`${m[1]} (in ${file.url})`);
      }
    }
    expect([...unexplained]).toEqual([]);
  });

  it('the document the page renders makes it load nothing: local $refs only, no images or HTML, example hosts only', async () => {
    const document: unknown = await (await fetch(`${server.url}/api/0.1/openapi.json`)).json();
    const external: string[] = [];
    const markup: string[] = [];
    const unexplained = new Set<string>();
    for (const [key, text] of strings(document)) {
      if (key === '$ref' && !text.startsWith('#/')) external.push(text);
      if (LOADING_MARKUP.test(text)) markup.push(`${key}: ${text.slice(0, 120)}`);
      for (const m of text.matchAll(HOST)) if (!(m[1]! in DOCUMENT_HOSTS)) unexplained.add(`${m[1]} (under ${key})`);
    }
    expect(external, '$refs out of the document').toEqual([]);
    expect(markup, 'Markdown or HTML that loads').toEqual([]);
    expect([...unexplained]).toEqual([]);
    expect([...keys(document)].filter((key) => /logo/i.test(key))).toEqual([]);
  });

  it("serves only the page's files of the package", async () => {
    for (const name of ['package.json', 'swagger-ui.js', 'index.html', 'swagger-initializer.js', '../openapi.json/x']) {
      const res = await fetch(docsFile(name));
      await res.text();
      expect(res.status, name).toBe(404);
    }
  });
});
