/**
 * An SDK user's first client: the SDK @hey-api/openapi-ts (default options: its fetch client, types and one
 * function per operation) generates from the document the registry serves, driven by
 * fixtures/hey-api-client.ts through the cookie-jar fetch wrapper of docs/clients.md.
 */
import { join } from 'node:path';
import { describeGenerator, packageScript } from './sdk-project.js';

describeGenerator({
  title: '@hey-api/openapi-ts, generated from the served document',
  program: 'hey-api-client.ts',
  generate: (dir, documentUrl) =>
    packageScript(dir, '@hey-api/openapi-ts/bin/run.js', ['-i', documentUrl, '-o', join(dir, 'client')]),
});
