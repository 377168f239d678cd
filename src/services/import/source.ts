/** The original's CouchDB database through its official Node client (nano); credentials in the URL's user info. */
import nano from 'nano';
import type { ChangeRow } from '../../domain/original.js';

/** Exit 2: nothing was written. */
export class ImportCannotRun extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportCannotRun';
  }
}

interface ChangesPage {
  rows: ChangeRow[];
  /** CouchDB's `last_seq`, opaque. */
  lastSeq: string;
}

export interface CouchSource {
  /** The URL without its credentials: how reports and the import's state name the database. */
  readonly name: string;
  /** Deleted ones included: what the progress bar counts towards. */
  readonly documents: number;
  changes(since: string, limit: number): Promise<ChangesPage>;
}

/** `http://user:pass@host:5984/registry` → the server URL (with credentials) and the database name. */
function splitDatabaseUrl(from: string): { server: string; database: string; name: string } {
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    throw new ImportCannotRun(
      `--from ${JSON.stringify(from)} is not a URL (expected http(s)://[user:password@]host:port/database)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImportCannotRun(`--from must be an http or https URL of a CouchDB database, got ${url.protocol}`);
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const database = segments.pop();
  if (database === undefined)
    throw new ImportCannotRun('--from names no database: add its name to the URL path (…/registry)');
  url.pathname = segments.length === 0 ? '/' : `/${segments.join('/')}/`;
  const server = url.toString();
  url.username = '';
  url.password = '';
  return { server, database: decodeURIComponent(database), name: `${url.toString()}${database}` };
}

interface CouchError {
  statusCode?: number;
  code?: string;
  message?: string;
  cause?: { code?: string };
}

function cannotRun(error: unknown, name: string): ImportCannotRun {
  const failure = (error ?? {}) as CouchError;
  const status = failure.statusCode;
  if (status === 401 || status === 403)
    return new ImportCannotRun(`CouchDB refused the credentials for ${name} (HTTP ${status})`);
  if (status === 404) return new ImportCannotRun(`CouchDB has no database ${name} (HTTP 404)`);
  const code = failure.code ?? failure.cause?.code;
  if (status === undefined) {
    return new ImportCannotRun(`CouchDB at ${name} is unreachable (${code ?? failure.message ?? String(error)})`);
  }
  return new ImportCannotRun(`CouchDB answered HTTP ${status} for ${name}: ${failure.message ?? ''}`);
}

/** Opens the database: reachable, there, and the credentials taken, or ImportCannotRun. */
export async function openCouchSource(from: string): Promise<CouchSource> {
  const { server, database, name } = splitDatabaseUrl(from);
  const db = nano({ url: server }).use(database);
  let documents: number;
  try {
    const info = await db.info();
    // PouchDB's CouchDB API leaves doc_del_count out.
    documents = (info.doc_count ?? 0) + (info.doc_del_count ?? 0);
  } catch (error) {
    throw cannotRun(error, name);
  }
  return {
    name,
    documents,
    async changes(since, limit) {
      try {
        const response = await db.changes({ since, limit, include_docs: true });
        return { rows: response.results as ChangeRow[], lastSeq: String(response.last_seq) };
      } catch (error) {
        throw cannotRun(error, name);
      }
    },
  };
}
