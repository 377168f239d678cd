/**
 * Entry point: settings → store → app → listen. On SIGTERM or SIGINT (and the other termination signals, or an
 * uncaught error) close-with-grace runs the shutdown once (decisions.md §13): the server stops listening, ends
 * the change streams and lets the requests in flight finish (plugins/draining.ts), then the store closes and the
 * process exits 0. A repeated SIGTERM or SIGINT is ignored; a shutdown that takes longer than CLOSE_GRACE_DELAY
 * ends the process anyway (logged, exit code 1).
 */
import closeWithGrace from 'close-with-grace';
import { helpText, loadConfig, SettingError } from './config.js';
import { ensureAuthFile } from './plugins/auth.js';
import { openStore } from './store/index.js';
import { buildApp } from './app.js';
import { ensureSigningKey } from './services/signing.js';

/** The signals that ask for a graceful shutdown (decisions.md §13). */
const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const satisfies readonly NodeJS.Signals[];

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(helpText());
    return;
  }
  const config = loadConfig();
  const { keys, createdText } = ensureAuthFile(config.authFile);
  if (createdText !== undefined) {
    process.stdout.write(
      `Created ${config.authFile} with fresh API keys (shown only this once; the file keeps them):\n${createdText}\n`,
    );
  }
  const signing = ensureSigningKey(config.dsKeyFile);
  if (signing.created) {
    process.stdout.write(
      `Created ${config.dsKeyFile}: the document service's signing key (KeyID ${signing.key.keyId}); keep it, and give every node the same file\n`,
    );
  }
  const store = await openStore(config);
  const app = await buildApp({ config, store, keys, signingKey: signing.key });

  // Set by whichever shutdown starts first (a signal, an uncaught error): later SIGTERMs and SIGINTs are ignored.
  let shuttingDown = false;
  const shutdown = closeWithGrace(
    {
      delay: config.closeGraceDelay,
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
  // A signal sent to the whole process group (Ctrl-C under npm, systemd's control-group kill) arrives more than
  // once: the first starts the one shutdown, the others are ignored.
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

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  // A bad setting is the user's to fix: its message says which and why, a stack trace would only hide it.
  const text = error instanceof SettingError ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`registry failed to start: ${text}\n`);
  process.exit(1);
});
