// The writer thread's entry. Plain JavaScript for the reason bin/server.js is: a worker thread does
// not inherit the process's compile cache, so a TypeScript entry would load Node's TypeScript
// stripper into the thread (some 12 MB of resident memory) before the cache could spare it.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./sqliteWriterThread.ts');
