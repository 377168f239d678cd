/**
 * Entry point: settings → store → app → listen. SIGTERM/SIGINT stop accepting requests, let the ones in
 * flight finish, then close the store.
 */
import { loadConfig, SETTINGS } from './config.js';
import { ensureAuthFile } from './plugins/auth.js';
import { openStore } from './store/index.js';
import { buildApp } from './app.js';
import { ensureSigningKey } from './services/signing.js';

function printHelp(): void {
  const lines = SETTINGS.map(([name, fallback, meaning]) => {
    const flag = `--${name.toLowerCase().replace(/_/g, '-')}`;
    return `  ${name.padEnd(18)} ${flag.padEnd(21)} default ${fallback}: ${meaning}`;
  });
  process.stdout.write(`claimrights-registry: settings (environment variable or flag)\n${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    printHelp();
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
  process.stderr.write(`registry failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
