// The direction of imports between top-level folders (docs/architecture.md, "Layers"). Checked by
// `npm run lint`; test/architecture/layers.test.ts plants a back-edge to show that the check fails on one.
//
// Each folder may import only from itself and the folders listed for it. The table is ordered from the
// base up, and every folder lists only folders above it in the table, so folders can never import each other.
const LAYERS = {
  lib: [],
  schemas: ['lib'],
  scan: ['lib', 'schemas'],
  store: ['lib', 'schemas'],
  render: ['lib', 'schemas', 'scan'],
  accounts: ['lib', 'schemas', 'store'],
  monitoring: ['lib', 'schemas', 'scan', 'store', 'accounts'],
  tools: ['lib', 'schemas', 'scan', 'store', 'accounts', 'monitoring'],
  // The express side of a tool call (its context, running a guard, 405), shared by the HTTP surfaces below it.
  http: ['lib', 'schemas', 'store', 'tools'],
  // The three surfaces sit side by side: none imports another (mcp/ and pages/ list no rest/).
  rest: ['lib', 'schemas', 'scan', 'store', 'accounts', 'monitoring', 'tools', 'http'],
  mcp: ['lib', 'schemas', 'scan', 'store', 'tools', 'http'],
  pages: ['lib', 'schemas', 'scan', 'store', 'accounts', 'monitoring', 'tools', 'http'],
  // The documents describe the API from its route table and OpenAPI, never from its router; MCP from tools/.
  'well-known': ['lib', 'schemas', 'scan', 'store', 'tools', 'http', 'rest', 'pages'],
  server: ['lib', 'schemas', 'scan', 'store', 'render', 'accounts', 'monitoring', 'tools', 'http', 'rest', 'mcp', 'pages', 'well-known'],
};
const FOLDERS = Object.keys(LAYERS);
const any = (names) => `^(${names.join('|')})/`;

/** Packages that belong to one layer only: HTTP, MCP and database drivers stay out of the audit engine. */
const SURFACE_PACKAGES = '^(express|express-rate-limit|pino-http|@modelcontextprotocol/sdk|mongodb|better-sqlite3|playwright-core)(/|$)';

module.exports = {
  forbidden: [
    ...FOLDERS.map((folder) => ({
      name: `${folder}-imports-only-below`,
      comment: `${folder}/ may import only from ${LAYERS[folder].join(', ') || 'nothing else in the project'}`,
      severity: 'error',
      from: { path: `^${folder}/` },
      to: { path: any(FOLDERS), pathNot: any([folder, ...LAYERS[folder]]) },
    })),
    {
      name: 'well-known-reads-no-router',
      comment: 'the documents read the route table (rest/routes.ts) and OpenAPI, never the express router that serves them',
      severity: 'error',
      from: { path: '^well-known/' },
      to: { path: '^rest/router\\.ts$' },
    },
    {
      name: 'scan-knows-no-http-mcp-or-database',
      comment: 'scan/ is the audit engine: it fetches stores through its own fetcher and answers plain data',
      severity: 'error',
      from: { path: '^scan/' },
      to: { path: SURFACE_PACKAGES, dependencyTypes: ['npm'] },
    },
    {
      name: 'store-knows-no-http-or-mcp',
      severity: 'error',
      from: { path: '^store/' },
      to: { path: '^(express|express-rate-limit|pino-http|@modelcontextprotocol/sdk)(/|$)', dependencyTypes: ['npm'] },
    },
    {
      name: 'monitoring-worker-knows-no-http',
      comment: 'the monitoring worker runs without the HTTP layer: the quota rules it spends live in accounts/',
      severity: 'error',
      from: { path: '^server/monitoring\\.ts$' },
      to: { path: '^rest/' },
    },
    {
      name: 'no-circular',
      comment: 'a cycle between modules hides which one is the base',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|data|test|scripts|bin|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

// The table itself, for the test that plants a back-edge (not part of dependency-cruiser's schema).
Object.defineProperty(module.exports, 'LAYERS', { value: LAYERS, enumerable: false });
