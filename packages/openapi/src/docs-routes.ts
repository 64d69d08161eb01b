// GET /openapi.json, GET /docs and the docs page's own assets. The renderer is swagger-ui-dist from
// node_modules, served by us (no CDN: the page works offline and the CSP allows only this origin).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Request, RequestHandler } from 'express';
import { openApiJson } from './openapi-document.ts';

const require = createRequire(import.meta.url);
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

// The page's start-up script is an asset too, so the CSP needs no 'unsafe-inline' for scripts.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    // No call to the public validator service: the document is validated in our tests.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

interface Asset { type: string; body: () => Buffer }

const fromDist = (file: string): (() => Buffer) => {
  let b: Buffer | undefined;
  return () => (b ??= readFileSync(path.join(swaggerDir, file)));
};

/** The only files /docs/assets/ serves: a fixed list, so no request path reaches the file system. */
const ASSETS: Readonly<Record<string, Asset>> = {
  'swagger-ui-bundle.js': { type: 'application/javascript; charset=utf-8', body: fromDist('swagger-ui-bundle.js') },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', body: fromDist('swagger-ui.css') },
  'favicon-32x32.png': { type: 'image/png', body: fromDist('favicon-32x32.png') },
  'docs-init.js': { type: 'application/javascript; charset=utf-8', body: () => Buffer.from(INIT_SCRIPT) },
};

const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/**
 * Relative links keep the page working under any prefix a proxy or client adds (`/api/docs`):
 * from `/docs` the assets are `docs/assets/…`, from `/docs/` they are `assets/…`.
 */
function pageHtml(req: Request): string {
  const slash = req.path.endsWith('/');
  const assets = slash ? 'assets/' : 'docs/assets/';
  const spec = slash ? '../openapi.json' : 'openapi.json';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>LLM backend API</title>
<link rel="icon" type="image/png" href="${assets}favicon-32x32.png">
<link rel="stylesheet" href="${assets}swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-spec-url="${spec}"></div>
<script src="${assets}swagger-ui-bundle.js"></script>
<script src="${assets}docs-init.js"></script>
</body>
</html>
`;
}

export function docsRoutes(): Record<'docs.openapi' | 'docs.page' | 'docs.asset', RequestHandler> {
  return {
    'docs.openapi': (_req, res) => { res.type('application/json').send(openApiJson()); },
    'docs.page': (req, res) => {
      res.setHeader('Content-Security-Policy', CSP);
      res.type('text/html').send(pageHtml(req));
    },
    'docs.asset': (req, res) => {
      const name = req.params.file;
      const asset = typeof name === 'string' && Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (!asset) { res.status(404).json({ detail: 'Not Found' }); return; }
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.type(asset.type).send(asset.body());
    },
  };
}
