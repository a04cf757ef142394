// ESLint flat config: typescript-eslint's type-checked rules over all TypeScript.
import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
  {
    // Issue 17 finding 2: a regex with nested or adjacent unbounded quantifiers backtracks
    // super-linearly; over attacker text (inbound mail, bounce reports, API input) that stalls
    // the process. These rules reject the shapes outright, in their strictest settings (potential
    // backtracking too; patterns whose source is reused and sticky ones included); a justified
    // exception carries an eslint-disable comment saying why its input is bounded.
    files: ['src/**/*.ts', 'plugins/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { ignoreSticky: false, ignorePartial: false }],
      'regexp/no-misleading-capturing-group': 'error',
    },
  },
  {
    // STYLE.md conventions 2 and 8: only src/config reads the environment (a setting goes in its
    // table, with its doc); output goes through the logger. bench/, test/ and scripts may print.
    files: ['src/**/*.ts', 'plugins/**/*.ts'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Only src/config reads process.env: add a setting to src/config/config-table.ts.',
        },
      ],
      'no-console': 'error',
    },
  },
  {
    // Layers point one way (issue 18 item 2, STYLE.md convention 11): src/api, src/worker and
    // src/mta import modules, never the reverse. A module's routes file may use the surface the
    // route kit (src/http) offers route declarations: route.ts, body.ts, context.ts,
    // authenticate.ts, response-schema.ts and the per-route limiter (rate-limit.ts; its class is
    // src/shared/rate-limiter.ts); the rest of the kit (mounting, the error middleware) is the api
    // process's. Contracts a module needs from below (job handlers, payloads) live in src/jobs, in
    // the kit (the authentication port) or in the owning module.
    files: ['src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(worker|mta|api)(/|$)',
              message:
                'Modules never import src/api, src/worker or src/mta: move the contract into src/jobs, src/http or the module.',
            },
            {
              // Issue 30 item 5: another module is reached through its face (index.ts) only.
              regex: '^\\.\\./(?!\\.\\.)[^/]+/',
              message:
                "Import another module through its face ('../<module>', its index.ts), never one of its files.",
            },
            {
              regex: '(^|/)http/(?!(route|body|context|authenticate|rate-limit|response-schema|operation)$)',
              message:
                'Modules import only the route surface of src/http (route, body, context, authenticate, rate-limit, response-schema, operation).',
            },
          ],
        },
      ],
    },
  },
  {
    // The route kit (issue 30 item 4) sits below the modules that declare routes with it and the
    // api process that mounts them: it imports neither. What it needs from them is a port it
    // declares (the Authenticator in context.ts), which src/api/app.ts wires.
    files: ['src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(modules|api|compat|worker|mta)(/|$)',
              message:
                'src/http is the route kit: it imports no module and no process layer; declare a port here and wire it in src/api/app.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // The foundations (config, db, jobs, shared) sit below every module and process, and below src/mail.
    files: ['src/config/**/*.ts', 'src/db/**/*.ts', 'src/jobs/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(modules|mail|http|api|worker|mta)(/|$)',
              message:
                'src/config, src/db, src/jobs and src/shared import no module, no mail primitive and no process layer.',
            },
          ],
        },
      ],
    },
  },
  {
    // Mail primitives (issue 31 item 6): the reply classifier, VERP, the simulator's addresses,
    // the bounce-intake contract. Below every module, above the foundations only, so that
    // delivery and bounces both read them without reading each other.
    files: ['src/mail/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(modules|http|api|worker|mta|sender)(/|$)',
              message: 'src/mail imports only the foundations (config, db, jobs, shared) and itself.',
            },
          ],
        },
      ],
    },
  },
  {
    // The sender (issue 31) delivers over SMTP itself: below the worker that will call it, beside
    // src/mta, whose pure helpers (guard, MTA-STS, DKIM, limits) it reuses. No process layer and no
    // module repository: what it needs from the database the caller passes in.
    files: ['src/sender/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(http|api|worker)(/|$)|\\.repository$|(^|/)mta/(mta-runtime|main|haraka-[a-z-]+)$',
              message:
                'src/sender imports the foundations, module contracts and src/mta pure helpers only: no process layer, no repository.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // node:test's describe/it return promises the runner itself tracks.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
    },
  },
);
