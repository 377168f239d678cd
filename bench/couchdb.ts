/**
 * A CouchDB-compatible server for the import's tests and benchmark: PouchDB's own CouchDB HTTP API
 * (express-pouchdb) on its in-memory adapter, listening on loopback (no native parts, nothing on disk). With
 * `credentials`, every request must carry them as Basic auth, else 401 as CouchDB answers.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import nano from 'nano';

const require = createRequire(import.meta.url);

export interface CouchServer {
  /** `http://[user:password@]127.0.0.1:<port>/` */
  url: string;
  /** The URL of database `name` (with the credentials). */
  databaseUrl(name: string): string;
  /** Creates database `name` holding `docs` (bulk, in this order: `_changes` lists them so). */
  seed(name: string, docs: readonly Record<string, unknown>[]): Promise<void>;
  /** Deletes the stored document `id` of database `name` (a deleted document in `_changes`). */
  remove(name: string, id: string): Promise<void>;
  close(): Promise<void>;
}

let memoryPouch: unknown;

/** PouchDB on its memory adapter; plugins register once per process (and databases live in one memory store). */
function memoryPouchDb(): unknown {
  memoryPouch ??= require('pouchdb-core')
    .plugin(require('pouchdb-adapter-memory'))
    .plugin(require('pouchdb-mapreduce'))
    .plugin(require('pouchdb-replication'))
    .defaults({ adapter: 'memory' });
  return memoryPouch;
}

/** Several servers share one memory store: give each its databases' own names. */
export async function startCouch(credentials?: { user: string; password: string }): Promise<CouchServer> {
  const MemoryPouch = memoryPouchDb();
  const express = require('express');
  const expressPouch = require('express-pouchdb');
  const app = express();
  if (credentials !== undefined) {
    const expected = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
    app.use((request: { headers: Record<string, string> }, response: any, next: () => void) => {
      if (request.headers.authorization === expected) return next();
      response.status(401).json({ error: 'unauthorized', reason: 'Name or password is incorrect.' });
    });
  }
  app.use(expressPouch(MemoryPouch, { mode: 'minimumForPouchDB', inMemoryConfig: true, logPath: '/dev/null' }));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  const auth = credentials === undefined ? '' : `${credentials.user}:${credentials.password}@`;
  const url = `http://${auth}127.0.0.1:${port}/`;
  const client = nano(url);
  return {
    url,
    databaseUrl: (name) => `${url}${name}`,
    async seed(name, docs) {
      await client.db.create(name);
      const db = client.use(name);
      for (let i = 0; i < docs.length; i += 500) {
        const answers = await db.bulk({ docs: docs.slice(i, i + 500) as any[] });
        const failed = answers.find((answer) => answer.error !== undefined);
        if (failed) throw new Error(`seeding ${name}: ${failed.id} ${failed.error} ${failed.reason ?? ''}`);
      }
    },
    async remove(name, id) {
      const db = client.use(name);
      const doc = await db.get(id);
      await db.destroy(id, doc._rev);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
