// Lint rules: typescript-eslint's recommended set, plus the few that catch real bugs in a service
// (floating promises lose errors; unused variables hide dead code).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'bench/results/**', 'coverage/**', '**/dist/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's describe/test return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'test', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  // The console's browser modules: tsc checks their names against the DOM (web/tsconfig.json).
  { files: ['web/**/*.js'], rules: { 'no-undef': 'off' } },
  // Functions a reader can hold in their head: none over 150 lines in the service or the console
  // (tests, with their tables, are left out).
  {
    files: ['src/**/*.ts', 'web/src/**/*.js'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150 }] },
  },
);
