import { enableCompileCache } from 'node:module';

/**
 * The entry point (`npm start`). Node's compile cache keeps the compiled code and the
 * type-stripped sources between starts: a faster start and some 25 MB less memory than stripping
 * types again. It must be on before the service's modules load, so they are imported after it.
 */
enableCompileCache();
await import('./server.ts');
