/**
 * Contract tests as a CI system generates them: Portman writes a Postman collection from the document a real
 * registry serves, with its variations (401, 404, 403, fuzzed bodies and queries), and Newman runs it; nothing may
 * fail. The change stream is left out (it never ends), and so is the download's content type (`*\/*`, which
 * Portman compares as text). The collection is changed twice: folders in the flow's order (Portman orders only
 * inside a folder), and the upload's `file` part sent as a file (openapi-to-postmanv2 writes text). A fuzzed
 * variation of a property the example does not hold changes nothing (Portman fuzzes only what is there): left out.
 * So is a query fuzzed past its maximum length from an empty faked value: Portman then sends the maximum itself.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KEYS, useScratch, useServer } from '../helpers/server.js';
import { uploadFile } from '../helpers/uploads.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = join(ROOT, 'test/contract/portman');
/** The folders (the document's tags) in the order the flow needs: assets before transfers, those before documents. */
const FOLDERS = ['Service', 'Document service', 'Assets', 'Transfers', 'Documents'];

const server = useServer({}, { via: 'http' });
const scratch = useScratch();

interface Item {
  name: string;
  item?: Item[];
  request?: {
    body?: { mode?: string; raw?: string; formdata?: { key: string; type?: string; src?: string; value?: string }[] };
    url?: { query?: { key: string; value?: unknown }[] };
  };
}

interface Parameter {
  name: string;
  in: string;
  schema?: { maxLength?: number };
}

/** Every query parameter's `maxLength` in the document, by name. */
function queryMaxLengths(document: {
  paths: Record<string, Record<string, { parameters?: (Parameter | { $ref: string })[] }>>;
  components: { parameters: Record<string, Parameter> };
}): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const operation of Object.values(document.paths).flatMap((item) => Object.values(item))) {
    for (const entry of operation.parameters ?? []) {
      const parameter = '$ref' in entry ? document.components.parameters[entry.$ref.split('/').pop()!]! : entry;
      if (parameter.in === 'query' && parameter.schema?.maxLength !== undefined)
        lengths.set(parameter.name, parameter.schema.maxLength);
    }
  }
  return lengths;
}

/** `[maximum length name]` of a query: fuzzed when the value sent is longer than the parameter's maximum. */
function queryTooLong(item: Item, maxLengths: Map<string, number>): { fuzzed: boolean } | undefined {
  const match = /\[maximum length ([^\]]+)\]$/.exec(item.name);
  const sent = item.request?.url?.query?.find((query) => query.key === match?.[1]);
  const maxLength = maxLengths.get(match?.[1] ?? '');
  if (match === null || sent === undefined || maxLength === undefined) return undefined;
  return { fuzzed: String(sent.value ?? '').length > maxLength };
}

/** `[required a.b]` or `[minimum a.b]` in a fuzzed variation's name: the property, and whether it is really fuzzed. */
function fuzzTarget(item: Item): { fuzzed: boolean } | undefined {
  const match = /\[(required|minimum) ([^\]]+(?:\[\d+\][^\]]*)*)\]$/.exec(item.name);
  if (match === null || item.request?.body?.raw === undefined) return undefined;
  const path = match[2]!.replace(/\[(\d+)\]/g, '.$1').split('.');
  const at = (keys: string[]) =>
    keys.reduce<unknown>(
      (node, key) => (node as Record<string, unknown> | undefined)?.[key],
      JSON.parse(item.request!.body!.raw!),
    );
  // Removing a required field leaves its parent; a number under its minimum is there with that number.
  return { fuzzed: match[1] === 'required' ? at(path.slice(0, -1)) !== undefined : at(path) !== undefined };
}

/** Newman's JUnit report: one suite per request run (`<folder> / <request>`), with its failed assertions. */
function junitSuites(xml: string): { request: string; failures: string[] }[] {
  const unescapeXml = (text: string) =>
    text
      .replace(/&#xA;/g, ' ')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const suites = [...xml.matchAll(/<testsuite name="([^"]*)"[\s\S]*?<\/testsuite>/g)].map((match) => ({
    request: unescapeXml(match[1]!).split(' / ').pop() ?? '',
    failures: [...match[0].matchAll(/<(?:failure|error) [^>]*message="([^"]*)"/g)].map((failure) =>
      unescapeXml(failure[1]!).slice(0, 300),
    ),
  }));
  if (suites.length === 0) throw new Error(`Newman's report holds no request: ${xml.slice(0, 2000)}`);
  return suites;
}

function leaves(items: Item[]): Item[] {
  return items.flatMap((item) => (item.item ? leaves(item.item) : [item]));
}

/**
 * What the server was sent for the stored file and what it answers to its signed URL now: a refused download (seen
 * once in a full run, never alone) says whether Newman sent another URL or the server refuses its own.
 */
async function downloads(url: string): Promise<string> {
  const sent = server
    .logLines()
    .filter((line) => line.includes('"incoming request"') && line.includes('/ds/get/'))
    .map((line) => (JSON.parse(line) as { req: { url: string } }).req.url);
  const response = await fetch(url);
  const answer = `${response.status} ${(await response.text()).slice(0, 300)}`;
  return `downloads sent: ${sent.join(' ')}; the signed URL ${url} answers ${answer}`;
}

describe('Portman contract and variation tests, run by Newman', () => {
  it('pass for every operation of the served document, and the variations find nothing', async () => {
    const dir = await scratch.dir('portman-');
    const file = await uploadFile(server.broker);
    const download = new URL(file.url);
    await writeFile(join(dir, 'notice.pdf'), '%PDF-1.7 registry contract test');
    const served = await (await fetch(`${server.url}/api/0.1/openapi.json`)).text();
    await writeFile(join(dir, 'openapi.json'), served);

    const portman = join(ROOT, 'node_modules/@apideck/portman/bin/portman');
    const args = [
      '-l',
      join(dir, 'openapi.json'),
      '-c',
      join(CONFIG, 'portman-config.json'),
      '--filterFile',
      join(CONFIG, 'oas-filter.json'),
    ];
    args.push('-b', `${server.url}/api/0.1`, '-o', join(dir, 'collection.json'), '--logAssignVariables', 'false');
    await run(process.execPath, [portman, ...args], { cwd: dir, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });

    const collection = JSON.parse(await readFile(join(dir, 'collection.json'), 'utf8')) as { item: Item[] };
    const rank = (item: Item) => (FOLDERS.includes(item.name) ? FOLDERS.indexOf(item.name) : FOLDERS.length);
    collection.item.sort((a, b) => rank(a) - rank(b));
    for (const item of leaves(collection.item)) {
      for (const part of item.request?.body?.mode === 'formdata' ? (item.request.body.formdata ?? []) : []) {
        if (part.key !== 'file') continue;
        part.type = 'file';
        part.src = join(dir, 'notice.pdf');
        delete part.value;
      }
    }
    const maxLengths = queryMaxLengths(JSON.parse(served));
    const notFuzzed = new Set(
      leaves(collection.item)
        .filter((item) => (fuzzTarget(item) ?? queryTooLong(item, maxLengths))?.fuzzed === false)
        .map((item) => item.name),
    );

    const environment = {
      values: Object.entries({
        brokerKey: KEYS.broker,
        fileUrl: file.url,
        fileHash: file.hash,
        fileKey: download.pathname.split('/').pop() ?? '',
        keyId: download.searchParams.get('KeyID') ?? '',
        signature: download.searchParams.get('Signature') ?? '',
      }).map(([key, value]) => ({ key, value })),
    };
    await writeFile(join(dir, 'collection.json'), JSON.stringify(collection));
    await writeFile(join(dir, 'environment.json'), JSON.stringify(environment));
    // Newman's own command, as a CI step runs it; its JUnit report says what ran and what failed.
    const newman = join(ROOT, 'node_modules/newman/bin/newman.js');
    const report = join(dir, 'report.xml');
    const newmanArgs = [
      'run',
      'collection.json',
      '-e',
      'environment.json',
      '--timeout-request',
      '10000',
      '--reporters',
      'junit',
      '--reporter-junit-export',
      report,
    ];
    const outcome = await run(process.execPath, [newman, ...newmanArgs], {
      cwd: dir,
      timeout: 200_000,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => error);
    const suites = junitSuites(
      await readFile(report, 'utf8').catch(() => `newman wrote no report: ${outcome.stderr ?? ''}`),
    );

    const executions = suites.filter((suite) => !notFuzzed.has(suite.request));
    const failures = executions.flatMap((suite) => suite.failures.map((failure) => `${suite.request}: ${failure}`));
    if (failures.some((failure) => failure.startsWith('Download a stored file:')))
      failures.push(await downloads(file.url));
    expect(failures, failures.join('\n')).toEqual([]);

    // Every operation but the change stream ran and passed, and each kind of variation ran.
    const operations = (await (await fetch(`${server.url}/api/0.1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary?: string; operationId?: string }>>;
    };
    const summaries = Object.values(operations.paths).flatMap((item) =>
      Object.values(item)
        .filter((operation) => operation.operationId !== undefined && operation.operationId !== 'streamAssetChanges')
        .map((operation) => operation.summary),
    );
    const names = new Set(executions.map((suite) => suite.request));
    expect(summaries.filter((name) => !names.has(name ?? ''))).toEqual([]);
    for (const variation of [
      '[Without the key]',
      '[Unknown asset]',
      '[Another owner token]',
      '[Fuzzed body]',
      '[Fuzzed query]',
    ]) {
      expect(
        [...names].some((name) => name.includes(variation)),
        variation,
      ).toBe(true);
    }
    expect(notFuzzed.size).toBeLessThan(executions.length);
  }, 300_000);
});
