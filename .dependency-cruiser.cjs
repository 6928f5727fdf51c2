// Dependency rules for the port boundary (issue 17). `npm run check:deps` fails on any of them.
//
// Layout:  server/domain  records and rules     server/ports      interfaces only
//          adapters/<family>  implementations     server/composition  the one place that wires them
// Test code (*.test.ts, test-support, test/, contract-tests/) may import anything, except that adapter
// tests and conformance suites stay inside their family plus adapters/sandbox and test-support.

/** Test code: exempt from the layering rules below (it builds real adapters to test against). */
const TEST = '\\.test\\.ts$|(^|/)test-(support|fixtures)(/|\\.ts$)|^test/|^contract-tests/';
/** Test code inside adapters/: its tests, test-support files and the conformance suites. */
const ADAPTER_TEST = '^adapters/([^/]+)/.*(\\.test\\.ts$|test-(support|fixtures)(/|\\.ts$)|conformance/)';
/**
 * What adapter test code may import besides its own family (the $1 of ADAPTER_TEST): test support,
 * and the chain fault instrument (the fault proxy in front of the sandbox chains, tools/chain-faults).
 */
const TEST_SUPPORT = '(^|/)test-(support|fixtures)(/|\\.ts$)|^test/helpers/|^tools/chain-faults/';
/** Everything that is our own code (as opposed to npm packages and node builtins). */
const OWN = '^(server|adapters|clients|tools|scripts|test|contract-tests|generated|config|spec)/|^[^/]+\\.ts$';
/** The only server/ files that may import adapters/**: the composition root and the two processes. */
const WIRING = '^server/composition/|^server/(main|worker)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-only-domain-and-ports',
      comment:
        'server/domain/** holds records and rules: it may import server/domain/**, server/ports/**, ' +
        "server/errors.ts, the spec's generated types (generated/types: the vocabulary is derived from the spec, " +
        'issue 17), npm packages and node builtins; never adapters, handlers, HTTP, jobs or wiring.',
      severity: 'error',
      from: { path: '^server/domain/', pathNot: TEST },
      to: { path: OWN, pathNot: '^server/(domain|ports)/|^server/errors\\.ts$|^generated/types/' },
    },
    {
      name: 'ports-import-only-domain-and-ports',
      comment:
        'server/ports/** are interfaces only: they may import server/domain/** and server/ports/** ' +
        '(an npm or adapter type in a port would leak an implementation through the boundary).',
      severity: 'error',
      from: { path: '^server/ports/', pathNot: TEST },
      to: { pathNot: '^server/(domain|ports)/' },
    },
    {
      name: 'adapters-import-only-ports-domain-errors',
      comment:
        'adapters/<family>/** may import server/ports/**, server/domain/**, server/errors.ts and files ' +
        'of their own family; nothing else of ours (no handlers, jobs, loggers, config or other adapters).',
      severity: 'error',
      from: { path: '^adapters/([^/]+)/', pathNot: [ADAPTER_TEST, '^adapters/sandbox/'] },
      to: { path: OWN, pathNot: ['^adapters/$1/', '^server/(ports|domain)/', '^server/errors\\.ts$'] },
    },
    {
      name: 'sandbox-nodes-import-only-their-chain-protocol',
      comment:
        'adapters/sandbox/<chain>/** are local chain nodes: besides the adapter rule above they may import the ' +
        'wire interface their chain adapter consumes (adapters/chains/<chain>/rpc.ts) and its encoding helper ' +
        '(base58.ts), since they serve exactly that protocol; no other chain adapter code.',
      severity: 'error',
      from: { path: '^adapters/sandbox/([^/]+)/', pathNot: ADAPTER_TEST },
      to: { path: OWN, pathNot: ['^adapters/sandbox/', '^adapters/chains/$1/(rpc|base58)\\.ts$', '^server/(ports|domain)/', '^server/errors\\.ts$'] },
    },
    {
      name: 'adapter-tests-import-own-family-sandbox-test-support',
      comment:
        'Adapter tests, test-support and conformance suites may in addition use adapters/sandbox/** and ' +
        'test-support (test-support folders/files, test/helpers), not other adapter families or ' +
        'server internals beyond ports, domain and errors.',
      severity: 'error',
      from: { path: ADAPTER_TEST },
      to: {
        path: OWN,
        pathNot: ['^adapters/$1/', '^adapters/sandbox/', TEST_SUPPORT, '^server/(ports|domain)/', '^server/errors\\.ts$'],
      },
    },
    {
      name: 'handlers-http-pages-jobs-import-no-adapters',
      comment: 'server/handlers, server/http, server/pages and server/jobs talk to ports; the composition root ' + 'hands them adapters.',
      severity: 'error',
      from: { path: '^server/(handlers|http|pages|jobs)/', pathNot: TEST },
      to: { path: '^adapters/' },
    },
    {
      name: 'only-composition-wires-adapters',
      comment:
        'Outside server/composition/** (and server/main.ts, server/worker.ts, tools, scripts, tests) ' +
        'nothing in server/ imports an adapter: wiring lives in the one composition root. ' +
        '(domain, handlers, http, pages and jobs have their own rules above.)',
      severity: 'error',
      from: {
        path: '^server/',
        pathNot: [WIRING, TEST, '^server/(domain|ports|handlers|http|pages|jobs)/'],
      },
      to: { path: '^adapters/' },
    },
    {
      name: 'clients-import-nothing-from-server-or-adapters',
      comment:
        'clients/* are published workspaces (wallet SDK, partner client): self-contained. Their tests ' +
        'and test-support (excluded from the published build) may start a real service to test against.',
      severity: 'error',
      from: { path: '^clients/', pathNot: TEST },
      to: { path: '^(server|adapters)/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles anywhere: a cycle means two modules are one module in two files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves. Besides catching typos this keeps the rules above honest: an import ' + 'the cruiser cannot resolve would silently escape them.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['^\\.node24/', '(^|/)dist/', '^data/', '^coverage/'] },
    // Type-only imports count: a domain file importing an adapter's type is still coupled to it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      // Imports name their .ts files (allowImportingTsExtensions); these cover the rest.
      extensions: ['.ts', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
    cache: false,
  },
};
