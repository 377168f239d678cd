/**
 * The API documentation page, from `swagger-ui-dist`. Nothing is loaded from any other host: references are
 * relative, the online validator badge is off, and the Content-Security-Policy allows the registry only.
 */
import { createRequire } from 'node:module';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    docsPage: string;
  }
}

interface DocsPageOptions {
  prefix: string;
}

const SWAGGER_UI_DIR = (createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js') as () => string)();

/** The style sheet names its source map. */
export const PACKAGE_FILES = [
  'swagger-ui.css',
  'swagger-ui.css.map',
  'index.css',
  'swagger-ui-bundle.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
] as const;

/** A file, so the CSP needs no inline script. */
export const START_SCRIPT_NAME = 'start.js';
const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', document.baseURI).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null
});
`;

/** swagger-ui sets inline styles and uses data: images. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** Relative references, so a proxy may serve the registry under any path. */
export const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<title>Claim-right asset registry: API documentation</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="stylesheet" href="docs/index.css">
<link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="docs/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/${START_SCRIPT_NAME}"></script>
</body>
</html>
`;

async function docsPage(app: FastifyInstance, options: DocsPageOptions): Promise<void> {
  const base = `${options.prefix}/docs`;
  await app.register(fastifyStatic, { root: SWAGGER_UI_DIR, serve: false });
  app.decorate('docsPage', DOCS_PAGE);

  const config = { outsideDocument: true };
  for (const name of PACKAGE_FILES) {
    app.get(`${base}/${name}`, { config }, (_request, reply) => reply.sendFile(name));
  }
  app.get(`${base}/${START_SCRIPT_NAME}`, { config }, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(START_SCRIPT),
  );
}

export default fp(docsPage, { name: 'docs-page' });
