import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', '.vscode-test/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly', process: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly',
        AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly',
        __dirname: 'readonly', require: 'readonly', module: 'writable', window: 'readonly', document: 'readonly',
        performance: 'readonly', fetch: 'readonly', URLSearchParams: 'readonly', structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // `import vscode = require('vscode')` is how src/ imports the editor API: esbuild then
      // emits a plain require instead of copying the namespace into every module at load.
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='vscode'][importKind='value']",
          message:
            "Use `import vscode = require('vscode')`: an ES import makes esbuild copy the whole vscode namespace into every module, which costs activation time.",
        },
      ],
    },
  },
  {
    // The API client and the pure layers must not depend on the editor.
    files: ['src/api/**', 'src/geo/**', 'src/insights/build/**', 'src/sandbox/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'This layer must not import vscode.' }] }],
    },
  },
);
