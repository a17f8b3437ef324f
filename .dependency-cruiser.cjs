// The direction of imports between top-level folders (docs/architecture.md, "Layers"). Checked by
// `npm run lint`; test/architecture/layers.test.ts plants a back-edge to show that the check fails on one.
//
// Each folder may import only from itself and the folders listed for it. The table is ordered from the
// base up, and every folder lists only folders above it in the table, so folders can never import each other.
const LAYERS = {
  lib: [],
  schemas: ['lib'],
  outbound: ['lib'],
  scan: ['lib', 'schemas', 'outbound'],
  db: ['lib', 'schemas'],
  render: ['lib', 'schemas', 'outbound', 'scan'],
  accounts: ['lib', 'schemas', 'db'],
  monitoring: ['lib', 'schemas', 'outbound', 'scan', 'db', 'accounts'],
  // Background crawling on the store's queue: deep audits of a catalog and the seeded index.
  crawl: ['lib', 'schemas', 'outbound', 'scan', 'db', 'accounts', 'monitoring'],
  // The scanner's Web Bot Auth identity: its signing keys, their directory, the signer the fetcher uses.
  'bot-auth': ['lib', 'outbound', 'db'],
  tools: ['lib', 'schemas', 'outbound', 'scan', 'db', 'accounts', 'monitoring', 'crawl'],
  // The express side of a tool call (its context, running a guard, 405), shared by the HTTP surfaces below it.
  http: ['lib', 'schemas', 'db', 'tools'],
  // The three surfaces sit side by side: none imports another (mcp/ and pages/ list no rest/).
  rest: ['lib', 'schemas', 'outbound', 'scan', 'db', 'accounts', 'monitoring', 'crawl', 'tools', 'http'],
  mcp: ['lib', 'schemas', 'outbound', 'scan', 'db', 'tools', 'http'],
  pages: ['lib', 'schemas', 'outbound', 'scan', 'db', 'accounts', 'monitoring', 'crawl', 'bot-auth', 'tools', 'http'],
  // The documents describe the API from its route table and OpenAPI, never from its router; MCP from tools/.
  'well-known': ['lib', 'schemas', 'outbound', 'scan', 'db', 'bot-auth', 'tools', 'http', 'rest', 'pages'],
  // Running the audit in CI: gates, baselines, JUnit and Markdown, the hosted-API client, GitHub's pull requests.
  ci: ['lib', 'schemas', 'scan', 'monitoring', 'tools'],
  server: ['lib', 'schemas', 'outbound', 'scan', 'db', 'render', 'accounts', 'monitoring', 'crawl', 'bot-auth', 'tools', 'http', 'rest', 'mcp', 'pages', 'well-known', 'ci'],
};
const FOLDERS = Object.keys(LAYERS);

// Rooms inside the audit engine, from the base up: what a document says, the facts of a product page, the
// threads that parse pages, the agents that matter and how their answers compare, the requests a scan makes, and
// the checks that read it all. scan/index.ts (the
// entry), browser-view.ts and protocols.ts sit above every room; artifacts.ts (the record) below them all.
const SCAN_ROOMS = [
  ['documents', []],
  ['products', ['documents']],
  ['parser-threads', ['documents', 'products']],
  ['agents', ['documents', 'products']],
  ['fetching', ['documents', 'products', 'parser-threads', 'agents']],
  ['checks', ['documents', 'products', 'parser-threads', 'agents', 'fetching']],
];
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
      name: 'outbound-knows-no-http-mcp-or-database',
      comment: 'outbound/ is the one way out to addresses strangers give: it fetches and answers plain data',
      severity: 'error',
      from: { path: '^outbound/' },
      to: { path: SURFACE_PACKAGES, dependencyTypes: ['npm'] },
    },
    ...SCAN_ROOMS.map(([room, below]) => ({
      name: `scan-${room}-imports-only-below`,
      comment: `scan/${room}/ may import, inside scan/, only artifacts.ts${below.length ? ' and ' + below.join(', ') : ''}`,
      severity: 'error',
      from: { path: `^scan/${room}/` },
      to: { path: '^scan/', pathNot: [`^scan/(${[room, ...below].join('|')})/`, '^scan/artifacts\\.ts$'] },
    })),
    {
      name: 'db-knows-no-http-or-mcp',
      severity: 'error',
      from: { path: '^db/' },
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
