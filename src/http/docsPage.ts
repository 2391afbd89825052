import { readFileSync } from 'node:fs';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/** The service's name, as the reference at /docs and the OpenAPI documents give it. */
export const SERVICE_NAME = 'Card application service';

/**
 * How the reference at /docs presents itself: under the service's name and the console's icon,
 * without the framework's top bar (its logo and a box to load any other document).
 */
export function docsPageOptions(): Pick<FastifySwaggerUiOptions, 'theme' | 'uiConfig'> {
  const icon = readFileSync(new URL('../../web/favicon.svg', import.meta.url));
  return {
    theme: {
      title: `${SERVICE_NAME}: API reference`,
      favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: icon }],
    },
    uiConfig: { layout: 'BaseLayout' },
  };
}
