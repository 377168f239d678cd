/**
 * Entry point: settings → store → app → listen. On SIGTERM, SIGINT (and the other termination signals, or an
 * uncaught error) close-with-grace runs the shutdown once: the server stops accepting requests and lets the ones in
 * flight finish, then the store closes. A shutdown that takes longer than CLOSE_GRACE_DELAY, or a second signal,
 * ends the process at once (exit code 1).
 */
import closeWithGrace from 'close-with-grace';
import { helpText, loadConfig, SettingError } from './config.js';
import { ensureAuthFile } from './plugins/auth.js';
import { openStore } from './store/index.js';
import { buildApp } from './app.js';
import { ensureSigningKey } from './services/signing.js';

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

  closeWithGrace(
    { delay: config.closeGraceDelay, logger: { error: (reason: unknown) => app.log.error({ err: reason }, 'shutdown cut short') } },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, 'shutting down after an uncaught error');
      else app.log.info({ signal }, 'shutting down');
      await app.close();
      await store.close();
    },
  );

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  // A bad setting is the user's to fix: its message says which and why, a stack trace would only hide it.
  const text = error instanceof SettingError ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`registry failed to start: ${text}\n`);
  process.exit(1);
});
