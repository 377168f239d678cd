/**
 * The API documentation page, from the maintained `swagger-ui-dist` package: `app.docsPage` is a small HTML page
 * for the `getDocsPage` handler (`GET <prefix>/docs`), and this plugin serves the package's script, style sheets
 * and icons under `<prefix>/docs/`. The page renders the document the registry serves (`<prefix>/openapi.json`).
 *
 * Nothing is loaded from any other host: every reference in the page is relative, swagger-ui's online validator
 * badge is off (`validatorUrl: null`), and the page's Content-Security-Policy lets the browser load and connect to
 * the registry itself only (inline styles and data: images are swagger-ui's own).
 */
import { createRequire } from 'node:module';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The documentation page (HTML), sent as it is by `GET <prefix>/docs`. */
    docsPage: string;
  }
}

export interface DocsPageOptions {
  /** The API prefix (`/api/0.1`): the page is `<prefix>/docs`, its files `<prefix>/docs/<name>`. */
  prefix: string;
}

/** The folder of swagger-ui-dist's files, by the package's own helper. */
const SWAGGER_UI_DIR = (createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js') as () => string)();

/** The files of swagger-ui-dist the page uses, served as they are (the style sheet names its source map). */
export const PACKAGE_FILES = [
  'swagger-ui.css',
  'swagger-ui.css.map',
  'index.css',
  'swagger-ui-bundle.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
] as const;

/** Starts swagger-ui on the document beside the page; served as a file, so the CSP needs no inline script. */
export const START_SCRIPT_NAME = 'start.js';
export const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', document.baseURI).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null
});
`;

/** Only the registry itself: scripts and connections too. swagger-ui sets inline styles and uses data: images. */
export const CONTENT_SECURITY_POLICY = [
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

/** The page. Its references are relative to `<prefix>/docs`, so a proxy may serve the registry under any path. */
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

  // Files of the page, not operations of the document: the reply check (VALIDATE_REPLIES) passes them by.
  const config = { outsideDocument: true };
  for (const name of PACKAGE_FILES) {
    app.get(`${base}/${name}`, { config }, (_request, reply) => reply.sendFile(name));
  }
  app.get(`${base}/${START_SCRIPT_NAME}`, { config }, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(START_SCRIPT),
  );
}

export default fp(docsPage, { name: 'docs-page' });
