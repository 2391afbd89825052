import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TypedApp } from '../typedApp.ts';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { consoleMeta } from './consoleMeta.ts';
import { setSecurityHeaders } from './securityHeaders.ts';

/**
 * The operator console at /console: a front end of plain ES modules in `web/`, served as they are
 * in the repository (no build step), read once when the service starts. Every page path answers
 * with `index.html` and the front end routes; assets live under /console/assets/. The console is a
 * client of the admin API and nothing more: this file only serves files.
 */
export const CONSOLE_PREFIX = '/console';

const WEB_ROOT = fileURLToPath(new URL('../../../web/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

async function loadAssets(root: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const type = CONTENT_TYPES[extname(entry.name)];
    if (!entry.isFile() || type === undefined) continue;
    const path = join(entry.parentPath, entry.name);
    const body = await readFile(path);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    assets.set(relative(root, path).split(sep).join('/'), { body, type, etag });
  }
  return assets;
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  // Revalidated on every use (cheap: a 304), so a new release is never mixed with an old module.
  reply.header('cache-control', 'no-cache').header('etag', asset.etag).type(asset.type);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.send(asset.body);
}

export function consoleRoutes(ctx: ServiceContext, webRoot: string = WEB_ROOT) {
  return async (app: TypedApp) => {
    const assets = await loadAssets(webRoot);
    const index = assets.get('index.html');
    if (index === undefined) throw new Error(`console: ${webRoot}index.html is missing`);
    const meta = Buffer.from(JSON.stringify(consoleMeta(ctx)));

    // Every answer under /console, errors included, carries the headers.
    app.addHook('onSend', async (_request, reply) => setSecurityHeaders(reply));

    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      // The page itself is never stored: it is where a session starts.
      reply.header('cache-control', 'no-store').type(index.type);
      return reply.send(index.body);
    };
    const options = { config: { operation: 'console.page' }, schema: { hide: true } };
    app.get(CONSOLE_PREFIX, options, page);

    app.get(
      `${CONSOLE_PREFIX}/meta.json`,
      { config: { operation: 'console.meta' }, schema: { hide: true } },
      async (_request, reply) => reply.type('application/json; charset=utf-8').send(meta),
    );

    // The wildcard is always there: typed by the route's generic, with no schema to check.
    app.get<{ Params: { '*': string } }>(
      `${CONSOLE_PREFIX}/*`,
      { config: { operation: 'console.asset' }, schema: { hide: true } },
      async (request, reply) => {
        const path = request.params['*'];
        if (!path.startsWith('assets/')) return page(request, reply);
        const asset = assets.get(path.slice('assets/'.length));
        if (asset === undefined) throw new ServiceError('routeNotFound');
        return send(request, reply, asset);
      },
    );
  };
}
