/**
 * `claimrights-registry serve` (the default): settings → store → app → listen; one graceful shutdown
 * (docs/decisions/0038-graceful-shutdown.md).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import closeWithGrace from 'close-with-grace';
import { helpText } from '../config/help.js';
import { loadConfig, SettingError, UnknownFlagError } from '../config/load.js';
import { splitArgs, UsageError } from './args.js';
import { ensureAuthFile } from '../plugins/auth.js';
import { openStore } from '../store/index.js';
import { buildApp } from '../app.js';
import { ensureSigningKey } from '../services/signing.js';
import { logIdentity } from '../services/log/identity.js';

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const satisfies readonly NodeJS.Signals[];

/** V8 would leave a streamed file's dead chunks resident (docs/decisions/0031-built-in-document-service.md). */
function youngGenerationCollector(): () => void {
  // At run time, so that no start command needs a flag.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
  return () => gc({ type: 'minor' });
}

const USAGE = 'usage: claimrights-registry [serve] [--setting value ...]\n\n';

/** Exit 2 for a call to fix (unknown flag or argument), 1 for a registry that cannot start; nothing once listening. */
export async function serveCommand(argv: readonly string[]): Promise<number | undefined> {
  try {
    const args = splitArgs(argv);
    if (args.help) {
      process.stdout.write(USAGE + helpText());
      return 0;
    }
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}" (see --help)`);
    await serve(args.settings);
    return undefined;
  } catch (error) {
    // A bad setting is the user's to fix: its message says which and why, a stack trace would only hide it.
    const text =
      error instanceof SettingError || error instanceof UsageError
        ? error.message
        : error instanceof Error
          ? error.stack
          : String(error);
    process.stderr.write(`registry failed to start: ${text}\n`);
    return error instanceof UnknownFlagError || error instanceof UsageError ? 2 : 1;
  }
}

async function serve(settingsArgs: readonly string[]): Promise<void> {
  const config = loadConfig(process.env, settingsArgs);
  const { keys, createdText } = ensureAuthFile(config.auth.file);
  if (createdText !== undefined) {
    process.stdout.write(
      `Created ${config.auth.file} with fresh API keys (shown only this once; the file keeps them):\n${createdText}\n`,
    );
  }
  const signing = ensureSigningKey(config.documentService.keyFile);
  if (signing.created) {
    process.stdout.write(
      `Created ${config.documentService.keyFile}: the document service's signing key (KeyID ${signing.key.keyId}); keep it, and give every node the same file\n`,
    );
  }
  const logKey = ensureSigningKey(config.log.keyFile, 'the transparency log key');
  if (logKey.created) {
    process.stdout.write(
      `Created ${config.log.keyFile}: the transparency log's signing key; keep it secret and give every node the same file. Publish its verifier key where auditors find it, not through the registry:\n${logIdentity(logKey.key, { origin: config.log.origin, publicUrl: config.hosts.publicUrl }).vkey}\n`,
    );
  }
  const store = await openStore({
    ...config.store,
    timeZone: config.timeZone,
    requestTimeoutMs: config.connections.requestTimeout,
    node: config.cookie.serverId,
  });
  const app = await buildApp({
    config,
    store,
    keys,
    signingKey: signing.key,
    logKey: logKey.key,
    collectYoung: youngGenerationCollector(),
  });

  let shuttingDown = false;
  const shutdown = closeWithGrace(
    {
      delay: config.server.closeGraceDelay,
      logger: { error: (reason: unknown) => app.log.error({ err: reason }, 'shutdown cut short') },
      // Handled below: a repeated SIGTERM or SIGINT must not end the shutdown (close-with-grace would exit 1).
      skip: [...SHUTDOWN_SIGNALS],
    },
    async ({ signal, err }) => {
      shuttingDown = true;
      if (err) app.log.error({ err }, 'shutting down after an uncaught error');
      else if (signal) app.log.info({ signal }, 'shutting down');
      await app.close();
      await store.close();
    },
  );
  // A signal sent to the whole process group (Ctrl-C under npm, systemd) arrives more than once.
  for (const name of SHUTDOWN_SIGNALS) {
    process.on(name, (signal: NodeJS.Signals) => {
      if (shuttingDown) {
        app.log.info({ signal }, 'already shutting down; signal ignored');
        return;
      }
      shuttingDown = true;
      app.log.info({ signal }, 'shutting down');
      void shutdown.close();
    });
  }

  await app.listen({ host: config.server.host, port: config.server.port });
}
