/**
 * The layering of the repository (ARCHITECTURE.md, "The layers"), checked by `npm run lint`.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const SERVER_SIDE_BUT_DOMAIN = '^(platform|projections|workflows|api)/';
const OTHER_WORKSPACES_THAN_DOMAIN = '^(platform|projections|workflows|api|web|console)/';

module.exports = {
  forbidden: [
    {
      name: 'domain-imports-no-node-builtins',
      comment: 'domain/ is pure: no file system, network, process or clock modules of Node.',
      severity: 'error',
      from: { path: '^domain/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'domain-imports-no-other-workspace',
      comment: 'domain/ is the innermost layer: it imports only itself.',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: OTHER_WORKSPACES_THAN_DOMAIN },
    },
    {
      name: 'domain-imports-no-io-package',
      comment:
        'domain/ is pure: of the packages it may use only zod (and the test libraries in its specs). ' +
        'pg, fastify, the event store clients and the like belong to platform/ and api/.',
      severity: 'error',
      from: { path: '^domain/' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: '(^|/)node_modules/(zod|vitest|@vitest|fast-check|@fast-check)/',
      },
    },
    {
      name: 'apps-import-only-domain-of-the-server',
      comment: 'web/ and console/ run in the browser: of the server side they share only domain/ (validation, names, amounts, error codes).',
      severity: 'error',
      from: { path: '^(web|console)/' },
      to: { path: SERVER_SIDE_BUT_DOMAIN },
    },
    {
      name: 'apps-import-not-each-other',
      comment: 'web/ and console/ are separate applications.',
      severity: 'error',
      from: { path: '^(web|console)/' },
      to: { path: '^(web|console)/', pathNot: '^$1/' },
    },
    {
      name: 'imports-resolve',
      comment: 'Every import resolves to a file or a package: an import the cruiser cannot follow is one no rule above can check.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'modules-import-not-other-modules-routes',
      comment:
        "A module's routes are its own HTTP surface: another module that needs the behaviour behind them " +
        'imports the service or the domain, never the routes.',
      severity: 'error',
      from: { path: '^api/src/modules/([^/]+)/' },
      to: { path: '^api/src/modules/[^/]+/.+[.]routes?[.]ts$', pathNot: '^api/src/modules/$1/' },
    },
    {
      name: 'accounts-and-billing-apart',
      comment: 'Accounts read a plan through the planOf that app.ts passes in; billing never reaches into accounts.',
      severity: 'error',
      from: { path: '^api/src/modules/(accounts|billing)/', pathNot: '[.]spec[.]ts$' },
      to: { path: '^api/src/modules/(accounts|billing)/', pathNot: '^api/src/modules/$1/' },
    },
    {
      name: 'api-no-circular',
      comment: 'No import circles inside api/src: a circle makes the order modules load in matter.',
      severity: 'error',
      from: { path: '^api/src/' },
      to: { circular: true, path: '^api/src/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '^data/', '^test-artifacts/', '^bench/[.]scratch/'] },
    // type-only imports count as dependencies too: a layer leaks through its types as well
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // the workspaces are linked under node_modules/@axel: follow the links back to their sources
    preserveSymlinks: false,
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
