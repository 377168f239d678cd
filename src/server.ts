/**
 * Entry point: settings → store → app → listen. SIGTERM/SIGINT stop accepting requests, let the ones in
 * flight finish, then close the store.
 */
import { helpText, loadConfig, SettingError } from './config.js';
import { ensureAuthFile } from './plugins/auth.js';
import { openStore } from './store/index.js';
import { buildApp } from './app.js';

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
  const store = await openStore(config);
  const app = await buildApp({ config, store, keys });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  // A bad setting is the user's to fix: its message says which and why, a stack trace would only hide it.
  const text = error instanceof SettingError ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`registry failed to start: ${text}\n`);
  process.exit(1);
});
