/**
 * Every write waits for a majority, every read sees only what a majority has, both at the primary. Nothing waits
 * unbounded on an engine that does not answer, and no write is sent twice by the driver: an engine that does not
 * recognise a repeated write would apply it twice (docs/decisions/0074-mongodb-writes-bounded-and-sent-once.md).
 */
import {
  MongoBulkWriteError,
  MongoClient,
  MongoError,
  MongoNetworkError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
  type CommandStartedEvent,
  type Db,
} from 'mongodb';
import { StoreUnavailableError, type StoreRefusal } from '../types.js';

/** Bounds the server's wait for the majority, well inside a tick's write margin (ticks.ts). */
const WRITE_TIMEOUT_MS = 10_000;
/** Finding a primary (a failover, an engine restarting), and opening a connection to it. */
const SELECTION_TIMEOUT_MS = 5_000;
/** A reply that does not come in this long: the connection is given up (a cut network keeps it open, silent). */
const SOCKET_TIMEOUT_MS = 20_000;

/** The database named in the URI's path, `registry` when none. */
export function databaseName(uri: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(uri);
  const name = match?.[1] ? decodeURIComponent(match[1]) : '';
  return name || 'registry';
}

export interface ConnectOptions {
  uri: string;
  onCommand?: (event: CommandStartedEvent) => void;
}

/** `open` gets the client too: whatever it returns closes it; the client is closed if `open` fails. */
export async function withDatabase<T>(
  options: ConnectOptions,
  open: (client: MongoClient, db: Db) => Promise<T>,
): Promise<T> {
  const client = new MongoClient(options.uri, {
    writeConcern: { w: 'majority', wtimeoutMS: WRITE_TIMEOUT_MS },
    readConcern: { level: 'majority' },
    readPreference: 'primary',
    retryWrites: false,
    serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS,
    connectTimeoutMS: SELECTION_TIMEOUT_MS,
    socketTimeoutMS: SOCKET_TIMEOUT_MS,
    monitorCommands: options.onCommand !== undefined,
  });
  if (options.onCommand) client.on('commandStarted', options.onCommand);
  await client.connect();
  try {
    return await open(client, client.db(databaseName(options.uri)));
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** An error after which the write certainly did not happen, so its tick may be released at once. */
export function isDuplicateKey(error: unknown): error is MongoServerError {
  return error instanceof MongoServerError && error.code === 11000;
}

/** A duplicate key, or a bulk write whose every failure is one: what was to be inserted is there already. */
export function isRepeatedInsert(error: unknown): boolean {
  return (
    isDuplicateKey(error) ||
    (error instanceof MongoBulkWriteError && [error.writeErrors].flat().every((e) => e.code === 11000))
  );
}

/** Documents per write of a bulk insert, and per batch of a long read. */
export const BULK_BATCH = 1000;

/**
 * Codes of a server that cannot serve now: not (or no longer) the primary, shutting down, its own backend gone
 * (FerretDB answers InternalError, 1, when PostgreSQL does not answer), a write concern not met in time.
 */
const UNAVAILABLE_CODES = new Set([1, 6, 7, 64, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

/** The driver's word that the server or pool an operation was given to has been closed under it. */
const CLOSED_UNDER_IT = new Set(['MongoServerClosedError', 'MongoPoolClosedError']);

/** The engine down, unreachable, failing over: 503 (refusals.ts). */
export function mongoRefusal(error: unknown): StoreRefusal | undefined {
  const unavailable =
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    (error instanceof MongoError && CLOSED_UNDER_IT.has(error.name)) ||
    (error instanceof MongoServerError && UNAVAILABLE_CODES.has(Number(error.code)));
  return unavailable ? new StoreUnavailableError(String(error), { cause: error }) : undefined;
}

/**
 * A failed write that certainly did not happen: no server was reached, no connection opened, or the server refused
 * it (a write concern error or a lost backend connection leaves the outcome unknown).
 */
export function certainlyNotApplied(error: unknown): boolean {
  if (error instanceof MongoServerSelectionError) return true;
  // Set by the driver when the connection failed while being opened, before any command was sent on it.
  if (error instanceof MongoNetworkError) return (error as { beforeHandshake?: boolean }).beforeHandshake === true;
  if (error instanceof MongoWriteConcernError) return false;
  if (error instanceof MongoServerError)
    return !/unexpected EOF|connection reset|broken pipe|conn closed/i.test(error.message);
  return false;
}
