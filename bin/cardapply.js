#!/usr/bin/env node
// The `cardapply` command. Node.js 24 runs the TypeScript sources directly.
import '../src/cli/main.ts';
