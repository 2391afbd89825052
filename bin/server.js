#!/usr/bin/env node
// The service (`npm start`). Plain JavaScript, so that Node's compile cache is on before the first
// TypeScript module loads: with every module in the cache, Node never loads its TypeScript stripper,
// some 28 MB of memory per process (a TypeScript entry is stripped before it can turn the cache on).
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('../src/server.ts');
