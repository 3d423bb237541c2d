// ESLint flat config: the architecture's guard rails, checked by `npm run lint` (early in `npm test`).
//  - src/core/ is plain Node: it never imports `vscode` (static import, `import()`, `import('vscode').X` types,
//    require) so the CLI, the tests and the benchmark can run it without VS Code.
//  - The Anthropic SDK lives only under src/core/llm/anthropic/: everything else talks to the LlmClient interface.
//    Tests may import the SDK (its error classes are test inputs for the classifier). Even there only its types are
//    imported: its code is required on the first request by sdk.ts, so activating the extension does not load it.
//  - Schemas use zod/mini through src/core/model/schema.ts only: the full `zod` build would be most of the bundle.
//  - The webview app (media/) runs in a browser: no `vscode`, no Node built-ins, no SDK.
//  - One file watcher per workspace folder: vscode's createFileSystemWatcher only in src/workspace/fileWatcher.ts.
//  - Notifications through src/notify.ts only: its show* functions keep model text from planting links in a message.
//  - No regular expression that backtracks or moves super-linearly (eslint-plugin-regexp): model replies, workspace
//    files, check output and cape/ markdown are untrusted and read on the extension host's thread, where a pattern
//    quadratic in a run of blanks froze VS Code for minutes. A pattern whose input is bounded says so in a disable
//    comment naming the bound.
// Style is left to the compiler (strict tsconfig); only rules that protect the structure are on.
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

const SDK = ['@anthropic-ai/sdk', '@anthropic-ai/sdk/*'];
const sdkRule = {
  group: SDK,
  message: 'The Anthropic SDK is used only under src/core/llm/anthropic/; depend on LlmClient (core/model) instead.',
};
const lazySdkRule = {
  group: SDK,
  allowTypeImports: true,
  message: "Import only the SDK's types here; its code is loaded on the first request by loadSdk() (sdk.ts), so activation does not load it.",
};
const zodRule = {
  group: ['zod', 'zod/*'],
  message: "Schemas use zod/mini through src/core/model/schema.ts (import * as z from '../model/schema'); the full zod build would triple the extension bundle.",
};
const vscodeRule = {
  name: 'vscode',
  message: "src/core is plain Node and never imports 'vscode'; put VS Code code in an adapter under src/.",
};
/** Forbids dynamic forms the import rule does not see: import('m'), import('m').Type, require('m'). */
function noDynamic(modules, message) {
  const alt = modules.map((m) => m.replace(/[/*@.-]/g, (c) => (c === '*' ? '.*' : `\\${c}`))).join('|');
  const re = `/^(${alt})$/`;
  return [
    { selector: `ImportExpression[source.value=${re}]`, message },
    { selector: `TSImportType[argument.literal.value=${re}]`, message },
    { selector: `CallExpression[callee.name='require'][arguments.0.value=${re}]`, message },
  ];
}

/** One FileSystemWatcher per workspace folder, shared: features subscribe to it instead of creating their own. */
const WATCHER_FILE = 'src/workspace/fileWatcher.ts';
const watcherRule = {
  selector: "MemberExpression[property.name='createFileSystemWatcher']",
  message: `Subscribe to the shared watcher (services.fileWatcher, ${WATCHER_FILE}) instead of creating a FileSystemWatcher.`,
};

/** Every notification passes inertLinks (src/notify.ts): a message quoting model text must not plant a command link. */
const NOTIFY_FILE = 'src/notify.ts';
const notifyRule = {
  selector: 'MemberExpression[property.name=/^show(Error|Warning|Information)Message$/]',
  message: `Show notifications with showError / showWarning / showInformation (${NOTIFY_FILE}), which keep model text from planting links.`,
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-test/**', 'test-output/**', '.tmp/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    // Two correctness rules the code already documents exceptions to with disable comments.
    rules: { 'no-control-regex': 'error', '@typescript-eslint/no-require-imports': 'error' },
  },
  {
    files: ['src/**/*.ts', 'media/**/*.ts'],
    plugins: { regexp },
    rules: { 'regexp/no-super-linear-backtracking': 'error', 'regexp/no-super-linear-move': 'error' },
  },
  {
    files: ['src/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/core/llm/anthropic/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [sdkRule, zodRule] }],
      'no-restricted-syntax': ['error', ...noDynamic(SDK, sdkRule.message), watcherRule, notifyRule],
    },
  },
  {
    files: [WATCHER_FILE],
    rules: { 'no-restricted-syntax': ['error', ...noDynamic(SDK, sdkRule.message), notifyRule] },
  },
  {
    files: [NOTIFY_FILE],
    rules: { 'no-restricted-syntax': ['error', ...noDynamic(SDK, sdkRule.message), watcherRule] },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/llm/anthropic/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodeRule], patterns: [sdkRule, zodRule] }],
      'no-restricted-syntax': ['error', ...noDynamic(['vscode'], vscodeRule.message), ...noDynamic(SDK, sdkRule.message)],
    },
  },
  {
    files: ['src/core/llm/anthropic/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodeRule], patterns: [zodRule] }],
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [lazySdkRule] }],
      'no-restricted-syntax': ['error', ...noDynamic(['vscode'], vscodeRule.message)],
    },
  },
  {
    files: ['src/core/model/schema.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [vscodeRule], patterns: [sdkRule] }] },
  },
  {
    files: ['media/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The webview talks to the host only through postMessage (src/panel/protocol.ts).' }],
          patterns: [
            sdkRule,
            { regex: '^(node:|fs$|path$|child_process$|os$)', message: 'The webview runs in a browser: no Node built-ins.' },
          ],
        },
      ],
    },
  },
);
