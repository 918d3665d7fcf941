import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Where a file may run is checked here as well as by the split tsconfig projects:
// src-shared is pure, the renderer never touches Node or Electron, and only src-main/electron imports electron.
const nodeBuiltins = { group: ['node:*'], message: 'Pure code: no Node built-ins here.' };
const electronImport = { group: ['electron', 'electron/*'], message: 'Only src-main/electron/ may import electron.' };

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'src-main/db/migrations/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { patterns: [electronImport] }],
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electronImport, { group: ['react', 'react-dom'], message: 'src-shared has no UI.' }] }] },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electronImport] }] },
  },
  {
    files: ['src-main/electron/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.test.ts', 'src-main/testing/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
