#!/usr/bin/env node
// The `cardapply` command. Node.js 24 runs the TypeScript sources directly; the compile cache
// keeps their stripped and compiled form between runs.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('../src/cli/main.ts');
