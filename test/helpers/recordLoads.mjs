// Preloaded with `--import` (NODE_OPTIONS): writes every module URL the process loaded, ES modules
// and CommonJS alike, to LOADED_MODULES_FILE when it exits. Plain JavaScript, so that loading it
// loads nothing else.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import process from 'node:process';

const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => writeFileSync(process.env.LOADED_MODULES_FILE, [...loaded].join('\n')));
