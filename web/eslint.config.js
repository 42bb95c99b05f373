// ESLint for the panel (`make lint`, `make test`): typescript-eslint's recommended
// rules, the rules of hooks, and the feature boundaries of docs/architecture.md §7 —
// a file under src/features/X imports only src/components, src/lib and
// src/features/X (tests may also use src/testing).
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import importX, { createNodeResolver } from 'eslint-plugin-import-x'

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)

/** One zone per feature: nothing from other features, app or testing. */
const featureZones = features.map((name) => ({
  target: `./src/features/${name}`,
  from: './src',
  except: [`./features/${name}`, './components', './lib', './testing'],
  message: 'A feature imports only src/components, src/lib and its own files: move the shared piece into components/ or lib/.',
}))

/** Shared code never reaches up into a feature or the app shell. */
const sharedZones = ['components', 'lib'].map((dir) => ({
  target: `./src/${dir}`,
  from: ['./src/features', './src/app'],
  message: 'src/components and src/lib import neither features nor src/app.',
}))

/** src/testing is for tests only. */
const testingZone = {
  target: './src/**/!(*.test).{ts,tsx}',
  from: './src/testing',
  message: 'src/testing is for tests only.',
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser } },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      // no-cycle reads the imported modules too: with TypeScript's parser.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      // The rules of hooks. The plugin's React Compiler diagnostics (refs, purity,
      // set-state-in-effect…) are for code compiled by the React Compiler, which the
      // panel does not use.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Relative imports only, so that the boundary check below resolves every one.
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/*'], message: 'Import with a relative path.' }] }],
      'import-x/no-unresolved': ['error', { ignore: ['^virtual:', '\\?'] }],
      'import-x/no-restricted-paths': ['error', { zones: [...featureZones, ...sharedZones, testingZone] }],
      // No import cycles between modules (a cycle hides an ordering bug and blocks splitting a feature).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Node scripts; the callbacks of page.evaluate run in the browser.
    files: ['e2e/**/*.mjs', 'e2e-wp/**/*.mjs', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
)
