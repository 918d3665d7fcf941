import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Where a file may run is checked here as well as by the split tsconfig projects:
// src-shared is pure, the renderer never touches Node or Electron, and only src-main/electron imports electron.
const nodeBuiltins = { group: ['node:*'], message: 'Pure code: no Node built-ins here.' };
const electronImport = { group: ['electron', 'electron/*'], message: 'Only src-main/electron/ may import electron.' };

/**
 * Layers of src-main, lowest first: platform (OS helpers) → db → adapters (carriers, documents,
 * printing, storefronts) and app/kernel (the context's ports) → domain (each resource's rules and
 * handlers) → app/dispatcher and app/runtime → the doors (http, ipc, cli) → electron and serve.ts. A file may import
 * its own layer and those below it, never above; each rule below is one layer's "never". Tests and
 * src-main/testing assemble real parts from every layer and are exempt.
 */
// Matched against the path as written: up through `../`, then the folder of src-main it names.
const never = (folders, message) => ({ regex: `^(\\.\\./)+(${folders})(/|$)`, message });
const doors = 'http|ipc|cli|electron|serve';
const layers = [
  {
    files: ['src-main/platform/**/*.ts'],
    patterns: [{ regex: '^\\.\\./', message: 'platform/ is the lowest layer: it imports only Node and its own files.' }],
  },
  {
    files: ['src-main/db/**/*.ts'],
    patterns: [never(`app|domain|carriers|documents|printing|storefronts|testing|${doors}`, 'db/ sits below everything but platform/ and src-shared.')],
  },
  {
    files: ['src-main/{carriers,documents,printing,storefronts}/**/*.ts'],
    patterns: [never(`domain|app/(runtime|dispatcher)|${doors}`, 'Adapters serve the domain; they do not call it, nor the doors.')],
  },
  {
    files: ['src-main/app/kernel/**/*.ts'],
    patterns: [never(`runtime|dispatcher|domain/handlers|${doors}`, 'The kernel holds the ports the domain is given: types, not the process around them.')],
  },
  {
    files: ['src-main/domain/**/*.ts'],
    patterns: [never(`app/(runtime|dispatcher)|${doors}`, 'The domain knows nothing of doors, the dispatcher or how the process starts.')],
  },
  {
    files: ['src-main/app/dispatcher/**/*.ts'],
    patterns: [never(`runtime|${doors}`, 'The dispatcher runs operations for every door; it is not one of them.')],
  },
  {
    files: ['src-main/app/runtime/**/*.ts'],
    patterns: [never(`dispatcher|domain/handlers|${doors}`, 'The runtime makes the context and runs chores; requests go through the dispatcher.')],
  },
  { files: ['src-main/{http,ipc,cli}/**/*.ts'], patterns: [never('http|ipc|cli|electron', 'A door does not reach into another door.')] },
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'src-main/db/migrations/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules read the TypeScript projects (tsconfig.node.json, tsconfig.web.json).
    languageOptions: { globals: { ...globals.node }, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its failure; one handed where a callback's result is ignored
      // (an event handler, forEach) runs unchecked: both must be awaited, returned or marked `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { patterns: [electronImport] }],
    },
  },
  // Plain JavaScript (this file, scripts/start.mjs) is in no TypeScript project.
  { files: ['**/*.{js,mjs}'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electronImport, { group: ['react', 'react-dom'], message: 'src-shared has no UI.' }] }],
    },
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
  ...layers.map(({ files, patterns }) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns: [electronImport, ...patterns] }] } })),
  {
    files: ['src-main/**/*.test.ts', 'src-main/testing/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [electronImport] }] },
  },
  {
    files: ['**/*.test.ts', 'src-main/testing/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
