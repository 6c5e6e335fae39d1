/**
 * The ingest stage's symbol and import extraction, proved on realistic samples in
 * test/fixtures/samples/ (one per language) and on the edge cases that break line scanners:
 * code-looking text inside comments and strings, strings continued past a line end, files
 * saved mid-edit, CRLF, a BOM, empty files, and 200 KB lines that must not trigger regex
 * backtracking.
 *
 * The TypeScript sample is named `.ts.fixture` so that tsc does not compile it with the project.
 * Tests run from dist/test/, so the samples are read from the source tree two levels up.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { extractDefinitions, type Extraction, type ImportRef, type SymbolDef } from '../src/ingest/extract/index.js';
import { languageOf } from '../src/ingest/language.js';

const SAMPLES_DIR = new URL('../../test/fixtures/samples/', import.meta.url);

/**
 * A scan of a 200 KB line takes a few milliseconds when linear; backtracking takes seconds
 * or hangs. The bound is loose so a loaded 2-core machine does not flake.
 */
const LONG_LINE_BOUND_MS = 1000;

function readSample(name: string): string {
  return readFileSync(new URL(name, SAMPLES_DIR), 'utf8');
}

type Row = [line: number, kind: SymbolDef['kind'], name: string, exported: boolean, parent?: string];

function defs(rows: Row[]): SymbolDef[] {
  return rows.map(([line, kind, name, exported, parent]) =>
    parent === undefined ? { name, kind, line, exported } : { name, kind, line, exported, parent },
  );
}

function imports(rows: [line: number, module: string][]): ImportRef[] {
  return rows.map(([line, module]) => ({ module, line }));
}

function names(extraction: Extraction): string[] {
  return extraction.symbols.map((s) => s.name);
}

describe('languageOf', () => {
  test('the languages with extractors are told apart by extension', () => {
    const cases: [string, string][] = [
      ['src/a.ts', 'typescript'],
      ['src/view.tsx', 'typescript'],
      ['lib/x.mts', 'typescript'],
      ['lib/x.cts', 'typescript'],
      ['types/index.d.ts', 'typescript'],
      ['a.js', 'javascript'],
      ['a.jsx', 'javascript'],
      ['a.mjs', 'javascript'],
      ['a.cjs', 'javascript'],
      ['pkg/mod.py', 'python'],
      ['pkg/mod.pyi', 'python'],
      ['cmd/main.go', 'go'],
      ['src/lib.rs', 'rust'],
      ['src/main/java/A.java', 'java'],
    ];
    for (const [path, language] of cases) assert.equal(languageOf(path), language, path);
  });

  test('text-only languages are labelled too', () => {
    const cases: [string, string][] = [
      ['README.md', 'markdown'],
      ['package.json', 'json'],
      ['ci.yml', 'yaml'],
      ['ci.yaml', 'yaml'],
      ['x.c', 'c'],
      ['x.h', 'c'],
      ['x.cpp', 'cpp'],
      ['x.hpp', 'cpp'],
      ['X.cs', 'csharp'],
      ['x.rb', 'ruby'],
      ['x.php', 'php'],
      ['build.sh', 'shell'],
      ['site.css', 'css'],
      ['index.html', 'html'],
      ['schema.sql', 'sql'],
      ['Cargo.toml', 'toml'],
    ];
    for (const [path, language] of cases) assert.equal(languageOf(path), language, path);
  });

  test('the extension is matched case-insensitively, on the base name only', () => {
    assert.equal(languageOf('SRC/MAIN.TS'), 'typescript');
    assert.equal(languageOf('weird.dir.py/Makefile'), null);
    assert.equal(languageOf('Makefile'), null);
    assert.equal(languageOf('.gitignore'), null);
    assert.equal(languageOf('archive.tar.gz'), null);
    assert.equal(languageOf('trailing.'), null);
  });
});

describe('typescript and javascript', () => {
  const sample = readSample('invoice-service.ts.fixture');

  test('every declaration form is found with its line, kind, export and class', () => {
    assert.deepEqual(
      extractDefinitions('typescript', sample).symbols,
      defs([
        [23, 'const', 'DEFAULT_CURRENCY', true],
        [24, 'const', 'MAX_LINE_ITEMS', false],
        [25, 'const', 'QUOTES', false],
        [32, 'enum', 'InvoiceStatus', true],
        [39, 'enum', 'Rounding', true],
        [44, 'interface', 'LineItem', true],
        [48, 'method', 'describe', true, 'LineItem'],
        [51, 'type', 'InvoiceId', true],
        [53, 'type', 'Totals', false],
        [55, 'function', 'createInvoiceId', true],
        [60, 'function', 'sumLineItems', true],
        [63, 'function', 'roundTo', true],
        [66, 'function', 'loadTaxTable', true],
        [73, 'const', 'banner', false],
        [80, 'class', 'InvoiceService', true],
        [90, 'method', 'draftCount', true, 'InvoiceService'],
        [94, 'method', 'addItem', true, 'InvoiceService'],
        [103, 'method', 'issue', true, 'InvoiceService'],
        [112, 'method', 'fromEnv', true, 'InvoiceService'],
        [117, 'method', 'onError', false, 'InvoiceService'],
        [121, 'method', '#totals', false, 'InvoiceService'],
        [127, 'method', 'pending', false, 'InvoiceService'],
        [132, 'module', 'Invoices', true],
        [133, 'const', 'PREFIX', true, 'Invoices'],
        [134, 'function', 'isInvoiceId', true, 'Invoices'],
        [139, 'class', 'InvoiceExporter', true],
        [142, 'method', 'toCsv', true, 'InvoiceExporter'],
        [148, 'function', 'internalHelper', true],
      ]),
    );
  });

  test('static, type-only, re-export, require and literal dynamic imports are all imports', () => {
    assert.deepEqual(
      extractDefinitions('typescript', sample).imports,
      imports([
        [6, 'node:events'],
        [7, 'pino'],
        [8, 'node:path'],
        [9, 'decimal.js'],
        [10, '../ledger/index.js'],
        [15, './polyfills.js'],
        [16, './invoice-types.js'],
        [17, './currency.js'],
        [18, './money.js'],
        [19, './tax.js'],
        [21, 'node:crypto'],
        [68, './tax-rates.js'],
        [113, '../ledger/client.js'],
      ]),
    );
  });

  test('CommonJS exports mark definitions exported; an object literal\'s function is a local function, not a method', () => {
    const js = readSample('legacy-router.js');
    const result = extractDefinitions('javascript', js);
    assert.deepEqual(
      result.symbols,
      defs([
        [6, 'const', 'SLUG_NOISE', false],
        [12, 'function', 'slugify', true],
        [18, 'function', 'list', false],
        [26, 'function', 'legacyLoader', true],
        [30, 'class', 'Router', true],
        [37, 'method', 'mount', true, 'Router'],
        [43, 'method', 'listen', true, 'Router'],
        [50, 'method', 'create', true, 'Router'],
        [55, 'function', 'lazyColor', true],
      ]),
    );
    // `require('./legacy/' + name)` is computed, so it names no module.
    assert.deepEqual(result.imports, imports([[3, 'express'], [4, 'util'], [5, 'debug'], [56, 'chalk']]));
  });

  test('a parenthesised initializer spanning lines is a function only if `=>` follows its `)`', () => {
    const text = [
      'export const handler = async (',
      '  request: Request,',
      '  reply: Reply,',
      '): Promise<void> => {',
      '  await reply.send(request.body);',
      '};',
      'const view = (',
      '  <main>',
      '    <h1>Title</h1>',
      '  </main>',
      ');',
      'const enabled = (',
      "  process.env.FLAG === '1'",
      ') ? true : false;',
    ].join('\n');
    assert.deepEqual(
      extractDefinitions('typescript', text).symbols,
      defs([
        [1, 'function', 'handler', true],
        [7, 'const', 'view', false],
        [12, 'const', 'enabled', false],
      ]),
    );
  });

  test('a regex literal starting with `>` is not a JSX `/>`', () => {
    const text = [
      'function escapeHtml(s) {',
      "  return s.replace(/</g, '&lt;').replace(/>/g, '&gt;');",
      '}',
      'function unescapeHtml(s) {}',
    ].join('\n');
    assert.deepEqual(names(extractDefinitions('javascript', text)), ['escapeHtml', 'unescapeHtml']);
  });

  test('type parameters, even over several lines or with `{}` defaults, do not hide a class body', () => {
    const text = [
      'export class Store<T extends object = {}> {',
      '  get<K extends keyof T>(key: K): T[K] {',
      '    return this.data[key];',
      '  }',
      '  static create<',
      '    const S extends object,',
      '  >(seed: S): Store<S> {',
      '    return new Store<S>();',
      '  }',
      '}',
      'export declare function bind<',
      '  const T extends (...args: any[]) => any,',
      '>(fn: T): T;',
      'export /*#__PURE__*/ function pure() {}',
    ].join('\n');
    assert.deepEqual(
      extractDefinitions('typescript', text).symbols,
      defs([
        [1, 'class', 'Store', true],
        [2, 'method', 'get', true, 'Store'],
        [5, 'method', 'create', true, 'Store'],
        [11, 'function', 'bind', true],
        [14, 'function', 'pure', true],
      ]),
    );
  });

  test('functions inside bodies and arguments are local definitions: declared, named, assigned to a property, a variable or a key', () => {
    const text = [
      "var app = exports = module.exports = {};",
      'app.listen = function listen(port) {',
      '  function onError(err) { throw err; }',
      '  return server(function* rows() {});',
      '};',
      'exports.compile = function (val) {',
      '  var inner = function () {};',
      '  handler = async function() {};',
      '};',
      'View.prototype.render = function(options, fn) {};',
      "describe('app', function () {",
      "  it('works', function () {",
      '    function fn1(req) { return req; }',
      '    function fn1(res) { return res; }',
      '    var routes = { show: function (req) {}, "quoted": function () {} };',
      '    app.request.querystring = function () {};',
      '    const pick = ok ? a : function () {};',
      '    if (a == function () {}) {}',
      '  });',
      '});',
    ].join('\n');
    assert.deepEqual(
      extractDefinitions('javascript', text).symbols,
      defs([
        [2, 'function', 'listen', false],
        [3, 'function', 'onError', false],
        [4, 'function', 'rows', false],
        [6, 'function', 'compile', true],
        [7, 'function', 'inner', false],
        [8, 'function', 'handler', false],
        [10, 'method', 'render', false, 'View'],
        [13, 'function', 'fn1', false],
        [14, 'function', 'fn1', false],
        [15, 'function', 'show', false],
        [16, 'function', 'querystring', false],
      ]),
    );
  });

  test('a local function keeps out of export lists; a top-level one named by one is exported', () => {
    const text = [
      'function setup() {',
      '  function helper() {}',
      '  return helper;',
      '}',
      'function helper() {}',
      'module.exports = { setup, helper };',
    ].join('\n');
    assert.deepEqual(
      extractDefinitions('javascript', text).symbols,
      defs([
        [1, 'function', 'setup', true],
        [2, 'function', 'helper', false],
        [5, 'function', 'helper', true],
      ]),
    );
  });

  test('an interface\'s method signatures are its methods; its properties, even of function type, are not', () => {
    const text = [
      'export interface Schema<T extends { a: 1 } = {}> extends Base<T> {',
      '  parse(data: unknown): T;',
      '  safeParse?(data: unknown): Result<T>;',
      '  refine<U>(check: (v: T) => U): this;',
      '  readonly name: string;',
      '  onChange: (v: T) => void;',
      '  [key: string]: unknown;',
      '}',
      'interface Local { run(): void }',
    ].join('\n');
    assert.deepEqual(
      extractDefinitions('typescript', text).symbols,
      defs([
        [1, 'interface', 'Schema', true],
        [2, 'method', 'parse', true, 'Schema'],
        [3, 'method', 'safeParse', true, 'Schema'],
        [4, 'method', 'refine', true, 'Schema'],
        [9, 'interface', 'Local', false],
      ]),
    );
  });

  test('overload signatures yield one symbol', () => {
    const text = [
      'export function parse(input: string): Ast;',
      'export function parse(input: Buffer): Ast;',
      'export function parse(input: string | Buffer): Ast {',
      '  return {} as Ast;',
      '}',
    ].join('\n');
    assert.deepEqual(extractDefinitions('typescript', text).symbols, defs([[1, 'function', 'parse', true]]));
  });

  test('a default-exported name and an export list make earlier declarations exported', () => {
    const text = [
      'class Store {}',
      'const open = () => new Store();',
      'export default Store;',
      'export {',
      '  open,',
      '};',
    ].join('\n');
    assert.deepEqual(
      extractDefinitions('typescript', text).symbols,
      defs([
        [1, 'class', 'Store', true],
        [2, 'function', 'open', true],
      ]),
    );
  });
});

describe('python', () => {
  const sample = readSample('task_queue.py');

  test('defs under a class are its methods, nested defs are local (not exported), a leading _ is private', () => {
    assert.deepEqual(
      extractDefinitions('python', sample).symbols,
      defs([
        [27, 'const', 'DEFAULT_LEASE_SECONDS', true],
        [28, 'const', '_SCHEMA_VERSION', false],
        [33, 'class', 'QueueError', true],
        [38, 'class', 'Task', true],
        [44, 'method', 'to_json', true, 'Task'],
        [48, 'method', 'from_row', true, 'Task'],
        [52, 'class', 'TaskQueue', true],
        [58, 'method', '__init__', false, 'TaskQueue'],
        [63, 'method', 'register', true, 'TaskQueue'],
        [64, 'function', 'decorator', false],
        [70, 'method', 'enqueue', true, 'TaskQueue'],
        [77, 'method', '_execute', false, 'TaskQueue'],
        [80, 'function', 'run', false],
        [87, 'method', 'lease_seconds', true, 'TaskQueue'],
        [90, 'class', 'Stats', true, 'TaskQueue'],
        [91, 'method', '__init__', false, 'Stats'],
        [94, 'method', 'record', true, 'Stats'],
        [98, 'function', 'drain', true],
        [107, 'function', '_open_connection', false],
        [112, 'function', 'make_queue', true],
      ]),
    );
  });

  test('import and from-import at any depth, relative modules as written', () => {
    assert.deepEqual(
      extractDefinitions('python', sample).imports,
      imports([
        [6, '__future__'],
        [8, 'asyncio'],
        [9, 'json'],
        [9, 'logging'],
        [10, 'os.path'],
        [11, 'dataclasses'],
        [12, 'typing'],
        [18, '.'],
        [19, '.backoff'],
        [20, '..config'],
        [23, '.models'],
        [78, 'sqlite3'],
        [108, 'sqlite3'],
      ]),
    );
  });

  test('a def after a dedent leaves the class', () => {
    const lines = ['class A:', '    def m(self):', '        pass', 'def f():', '    pass', '', '\tdef g(): pass'];
    assert.deepEqual(
      extractDefinitions('python', lines.join('\n')).symbols,
      defs([
        [1, 'class', 'A', true],
        [2, 'method', 'm', true, 'A'],
        [4, 'function', 'f', true],
        [7, 'function', 'g', false],
      ]),
    );
  });
  test('a def or class inside a def is a local definition: found, never exported, no parent; a local class has its methods', () => {
    const lines = [
      'def outer():',
      '    def helper(x):',
      '        def deeper(): pass',
      '        return x',
      '    class Local:',
      '        def run(self):',
      '            def step(): pass',
      '    async def later(): pass',
      '    return helper',
      'class Api:',
      '    def call(self):',
      '        def on_done(r): return r',
      '        class Handler: pass',
    ];
    assert.deepEqual(
      extractDefinitions('python', lines.join('\n')).symbols,
      defs([
        [1, 'function', 'outer', true],
        [2, 'function', 'helper', false],
        [3, 'function', 'deeper', false],
        [5, 'class', 'Local', false],
        [6, 'method', 'run', false, 'Local'],
        [7, 'function', 'step', false],
        [8, 'function', 'later', false],
        [10, 'class', 'Api', true],
        [11, 'method', 'call', true, 'Api'],
        [12, 'function', 'on_done', false],
        [13, 'class', 'Handler', false],
      ]),
    );
  });
});

describe('go', () => {
  const sample = readSample('cache.go');

  test('package funcs, methods with receivers, structs, interfaces and grouped types and consts', () => {
    assert.deepEqual(
      extractDefinitions('go', sample).symbols,
      defs([
        [20, 'const', 'ErrNotFound', true],
        [23, 'const', 'DefaultShards', true],
        [24, 'const', 'defaultTTL', false],
        [27, 'type', 'Key', true],
        [30, 'type', 'Option', true],
        [31, 'type', 'evictFunc', false],
        [35, 'interface', 'Getter', true],
        [39, 'struct', 'entry', false],
        [44, 'struct', 'shard', false],
        [50, 'struct', 'Cache', true],
        [57, 'const', 'usage', false],
        [66, 'function', 'WithTTL', true],
        [70, 'function', 'New', true],
        [82, 'method', 'shardFor', false, 'Cache'],
        [89, 'method', 'Get', true, 'Cache'],
        [104, 'method', 'Set', true, 'Cache'],
        [114, 'method', 'len', false, 'shard'],
        [116, 'struct', 'List', true],
        [120, 'method', 'Push', true, 'List'],
        [122, 'function', 'Map', true],
      ]),
    );
  });

  test('grouped and single imports, with aliases and blank imports', () => {
    assert.deepEqual(
      extractDefinitions('go', sample).imports,
      imports([
        [7, 'context'],
        [8, 'errors'],
        [9, 'hash/fnv'],
        [10, 'sync'],
        [11, 'time'],
        [13, 'github.com/acme/platform/metrics'],
        [14, 'github.com/acme/platform/pprof'],
        [17, 'fmt'],
      ]),
    );
  });
});

describe('rust', () => {
  const sample = readSample('segment_store.rs');

  test('items, trait and impl methods with their type, pub as export, inline mods', () => {
    assert.deepEqual(
      extractDefinitions('rust', sample).symbols,
      defs([
        [18, 'module', 'index', true],
        [19, 'module', 'compaction', false],
        [21, 'const', 'SEGMENT_MAGIC', true],
        [22, 'const', 'MAX_SEGMENT_BYTES', false],
        [23, 'const', 'OPEN_SEGMENTS', false],
        [32, 'struct', 'Offset', true],
        [37, 'struct', 'Span', true],
        [40, 'enum', 'Compression', true],
        [46, 'type', 'Records', true],
        [48, 'trait', 'Storage', true],
        [49, 'method', 'append', true, 'Storage'],
        [50, 'method', 'read', true, 'Storage'],
        [51, 'method', 'flush', true, 'Storage'],
        [56, 'struct', 'SegmentStore', true],
        [64, 'method', 'open', true, 'SegmentStore'],
        [71, 'method', 'segment_path', false, 'SegmentStore'],
        [75, 'method', 'roll', false, 'SegmentStore'],
        [88, 'method', 'append', true, 'SegmentStore'],
        [96, 'method', 'read', true, 'SegmentStore'],
        [103, 'method', 'from', true, 'Offset'],
        [111, 'function', 'replicate', true],
        [116, 'function', 'checksum', false],
        [121, 'module', 'tests', false],
        [125, 'function', 'checksum_is_stable', false, 'tests'],
      ]),
    );
  });

  test('use trees are expanded to one path per leaf; extern crate is an import', () => {
    assert.deepEqual(
      extractDefinitions('rust', sample).imports,
      imports([
        [5, 'std::collections::HashMap'],
        [6, 'std::fs'],
        [6, 'std::fs::File'],
        [6, 'std::fs::OpenOptions'],
        [7, 'std::io::BufWriter'],
        [7, 'std::io::Write'],
        [8, 'std::path::Path'],
        [8, 'std::path::PathBuf'],
        [9, 'serde::Deserialize'],
        [9, 'serde::Serialize'],
        [13, 'crate::error::Error'],
        [13, 'crate::error::Result'],
        [14, 'crate::codec::frame::decode'],
        [14, 'crate::codec::frame::encode'],
        [14, 'crate::codec::Crc32'],
        [16, 'alloc'],
        [122, 'super'],
      ]),
    );
  });
});

describe('java', () => {
  const sample = readSample('OrderRepository.java');

  test('types nest, methods belong to their type, constructors are skipped, public is exported', () => {
    assert.deepEqual(
      extractDefinitions('java', sample).symbols,
      defs([
        [20, 'class', 'OrderRepository', true],
        [22, 'const', 'PAGE_SIZE', true, 'OrderRepository'],
        [23, 'const', 'SELECT_BY_ID', false, 'OrderRepository'],
        [36, 'method', 'findById', true, 'OrderRepository'],
        [49, 'method', 'close', true, 'OrderRepository'],
        [53, 'method', 'page', false, 'OrderRepository'],
        [58, 'method', 'describe', false, 'OrderRepository'],
        [70, 'enum', 'Status', true, 'OrderRepository'],
        [81, 'method', 'code', true, 'Status'],
        [86, 'interface', 'Listener', true, 'OrderRepository'],
        [87, 'method', 'onSaved', true, 'Listener'],
        [89, 'method', 'onDeleted', true, 'Listener'],
        [92, 'class', 'Row', false, 'OrderRepository'],
        [101, 'interface', 'Auditable', false],
        [102, 'method', 'auditTrail', true, 'Auditable'],
        [105, 'class', 'OrderSummary', false],
        [107, 'interface', 'Audited', false],
        [108, 'method', 'value', true, 'Audited'],
      ]),
    );
  });

  test('a header split over lines is read as one, named on the line of its name', () => {
    const text = [
      'public final',
      'class Checks {',
      '    @ForceInline // keeps the call site small',
      '    public static',
      '    int checkIndex(int index, int length) {',
      '        return index;',
      '    }',
      '',
      '    private static final long BUF_OFFSET',
      '            = 16L;',
      '',
      '    /* package */ static final int MIN = 1, MAX = 2;',
      '}',
      'interface Reader {',
      '    Object readObject()',
      '        throws ClassNotFoundException, IOException;',
      '}',
    ].join('\n');
    assert.deepEqual(
      extractDefinitions('java', text).symbols,
      defs([
        [2, 'class', 'Checks', true],
        [5, 'method', 'checkIndex', true, 'Checks'],
        [9, 'const', 'BUF_OFFSET', false, 'Checks'],
        [12, 'const', 'MIN', false, 'Checks'],
        [12, 'const', 'MAX', false, 'Checks'],
        [14, 'interface', 'Reader', false],
        [15, 'method', 'readObject', true, 'Reader'],
      ]),
    );
  });

  test('imports, static imports and wildcards are kept as written', () => {
    assert.deepEqual(
      extractDefinitions('java', sample).imports,
      imports([
        [7, 'java.sql.Connection'],
        [8, 'java.sql.PreparedStatement'],
        [9, 'java.sql.SQLException'],
        [10, 'java.util.*'],
        [11, 'java.util.concurrent.ConcurrentHashMap'],
        [12, 'java.util.Objects.requireNonNull'],
        [13, 'com.acme.orders.Money.*'],
        [15, 'com.acme.orders.domain.Order'],
      ]),
    );
  });
});

describe('text that only looks like code', () => {
  const cases: [language: string, text: string, expected: string[]][] = [
    [
      'typescript',
      [
        '// export function lineComment() {}',
        '/* export function blockComment() {} */',
        '/*',
        'export function multiLineComment() {}',
        '*/',
        "const single = 'export function inSingle() {}';",
        'const template = `',
        'export function inTemplate() {}',
        '${`nested ${"`"}`}',
        'export class StillInTemplate {}',
        '`;',
        'const re = /`/;',
        'export function real() {}',
      ].join('\n'),
      ['single', 'template', 're', 'real'],
    ],
    [
      'python',
      [
        '# def line_comment(): pass',
        'DOC = """',
        'def in_triple():',
        '    pass',
        '"""',
        "OTHER = '''class InSingleTriple: '''",
        's = "def in_string(): pass"',
        'def real():',
        '    return r"""',
        'class AlsoInString:',
        '"""',
      ].join('\n'),
      ['DOC', 'OTHER', 'real'],
    ],
    [
      'go',
      [
        '// func LineComment() {}',
        '/*',
        'func BlockComment() {}',
        '*/',
        'var raw = `',
        'func InRaw() {}',
        '`',
        'func Real() {}',
      ].join('\n'),
      ['raw', 'Real'],
    ],
    [
      'rust',
      [
        '// fn line_comment() {}',
        '/* outer /* inner */',
        'fn still_in_outer_comment() {}',
        '*/',
        'const S: &str = "',
        'fn in_multi_line_string() {}',
        '";',
        'const R: &str = r##"',
        'fn in_raw() {} "# still raw',
        '"##;',
        "fn real<'a>(x: &'a str) -> char { '\"' }",
      ].join('\n'),
      ['S', 'R', 'real'],
    ],
    [
      'java',
      [
        '// public class LineComment {}',
        '/*',
        'public class BlockComment {}',
        '*/',
        'public class Real {',
        '    String s = """',
        '        public void inTextBlock() {}',
        '        """;',
        '    public void method() {}',
        '}',
      ].join('\n'),
      ['Real', 'method'],
    ],
  ];

  for (const [language, text, expected] of cases) {
    test(`${language}: comments and strings hide what they contain`, () => {
      assert.deepEqual(names(extractDefinitions(language, text)), expected);
    });
  }
});

describe('strings continued by a backslash', () => {
  test('python: the string goes on past the line end, so its brackets do not count', () => {
    const text = [
      'class A:',
      '    def m(self):',
      '        warn("deprecated, \\',
      '              use check (instead", Warning)',
      '    def n(self):',
      '        pass',
    ].join('\n');
    assert.deepEqual(names(extractDefinitions('python', text)), ['A', 'm', 'n']);
  });

  test('typescript: the string goes on past the line end, so its braces do not count', () => {
    const text = ['class A {', '  m() {', "    const s = 'a \\", "b { c';", '  }', '  n() {}', '}'].join('\n');
    assert.deepEqual(names(extractDefinitions('typescript', text)), ['A', 'm', 'n']);
  });
});

describe('files saved mid-edit', () => {
  // Agents read files while they are being edited, so a stray bracket must not blind the rest.
  const cases: [language: string, text: string, expected: string[]][] = [
    ['typescript', 'function a() {\n  call(x,\n}\nfunction b() {}', ['a', 'b']],
    ['go', 'func A() {\n\tcall(x,\n}\nfunc B() {}', ['A', 'B']],
    ['rust', 'fn a() {\n    call(x,\n}\nfn b() {}', ['a', 'b']],
    ['java', 'class A {\n  void a() {\n    call(x,\n  }\n  void b() {}\n}', ['A', 'a', 'b']],
    ['python', 'def a():\n    call(x,\n\ndef b():\n    pass', ['a', 'b']],
  ];
  for (const [language, text, expected] of cases) {
    test(`${language}: an unclosed parenthesis is forgotten when its block ends`, () => {
      assert.deepEqual(names(extractDefinitions(language, text)), expected);
    });
  }
});

describe('line endings, empty files and dispatch', () => {
  const samples: [string, string][] = [
    ['typescript', 'invoice-service.ts.fixture'],
    ['javascript', 'legacy-router.js'],
    ['python', 'task_queue.py'],
    ['go', 'cache.go'],
    ['rust', 'segment_store.rs'],
    ['java', 'OrderRepository.java'],
  ];

  test('CRLF line endings give the same extraction as LF', () => {
    for (const [language, file] of samples) {
      const lf = readSample(file).replace(/\r\n/g, '\n');
      const crlf = lf.replace(/\n/g, '\r\n');
      const expected = extractDefinitions(language, lf);
      assert.ok(expected.symbols.length > 0, file);
      assert.deepEqual(extractDefinitions(language, crlf), expected, file);
    }
  });

  test('a byte order mark does not hide the first line', () => {
    assert.deepEqual(names(extractDefinitions('typescript', '\uFEFFexport const a = 1;')), ['a']);
    assert.deepEqual(names(extractDefinitions('python', '\uFEFFdef a(): pass')), ['a']);
    assert.deepEqual(names(extractDefinitions('go', '\uFEFFfunc A() {}')), ['A']);
    assert.deepEqual(names(extractDefinitions('rust', '\uFEFFfn a() {}')), ['a']);
    assert.deepEqual(names(extractDefinitions('java', '\uFEFFclass A {}')), ['A']);
  });

  test('an empty or blank file has nothing in it', () => {
    for (const [language] of samples) {
      for (const text of ['', '\n', '\r\n', '   \n\t\n']) {
        assert.deepEqual(extractDefinitions(language, text), { symbols: [], imports: [], references: [] }, language);
      }
    }
  });

  test('languages without an extractor, and unknown files, give an empty result', () => {
    assert.deepEqual(extractDefinitions('markdown', '# export function x() {}'), { symbols: [], imports: [] });
    assert.deepEqual(extractDefinitions(null, 'export function x() {}'), { symbols: [], imports: [] });
  });
});

describe('long lines', () => {
  test('a 200 KB minified bundle is scanned in linear time and its requires are still seen', () => {
    const chunk =
      '!function(e,t){"object"==typeof exports&&"undefined"!=typeof module?module.exports=t(require("react")):' +
      'e.lib=t(e.React)}(this,function(e){var n=/["\'`{]+/g,r=e&&e.a/2;return`${n}`.replace(n,"}{")});';
    const reps = Math.ceil(200_000 / chunk.length);
    const text = chunk.repeat(reps);
    const started = performance.now();
    const result = extractDefinitions('javascript', text);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < LONG_LINE_BOUND_MS, `took ${elapsed.toFixed(1)} ms`);
    assert.equal(result.imports.length, reps);
    assert.ok(result.imports.every((i) => i.module === 'react' && i.line === 1));
  });

  test('adversarial 200 KB lines do not make any extractor backtrack', () => {
    const n = 200_000;
    const lines = [
      ' '.repeat(n),
      'a'.repeat(n),
      '('.repeat(n),
      '<'.repeat(n),
      '{'.repeat(n) + '}'.repeat(n),
      '"'.repeat(n),
      'export const x' + ' '.repeat(n) + ':',
      'export const f = (' + 'a, '.repeat(n / 3),
      'class A<' + 'T, '.repeat(n / 3),
      '  static async get ' + 'x'.repeat(n) + ' <' + ' '.repeat(n),
      'def f(' + 'x, '.repeat(n / 3),
      'from ' + '.'.repeat(n) + ' import',
      'from ' + '.'.repeat(n),
      'func (' + 's '.repeat(n / 2),
      'type ' + 'T'.repeat(n) + '[' + ' '.repeat(n),
      'pub(' + 'crate '.repeat(n / 6),
      'impl<' + "'a, ".repeat(n / 4),
      'use a::{' + 'b::{'.repeat(n / 4),
      'public ' + 'static '.repeat(n / 7) + 'x',
      'import static ' + 'a.'.repeat(n / 2),
      'protected handler: ' + '(a) => '.repeat(n / 7),
      'public <T> ' + 'List<T> '.repeat(n / 8) + 'x',
      'fn a' + '<'.repeat(n) + '(',
      'x.y = ' + 'function '.repeat(n / 9) + '(',
      'run(' + 'a.prototype.b = function (), '.repeat(n / 28),
      '{ ' + 'k: function(), '.repeat(n / 15),
      '\n'.repeat(n) + '= function(',
    ];
    // Each line also goes where the member and group patterns run: in a class, impl or group body.
    const bodies: [language: string, open: string, close: string][] = [
      ['typescript', 'export class A {\n', '\n}'],
      ['javascript', 'class A {\n', '\n}'],
      ['python', 'class A:\n    ', ''],
      ['go', 'type (\n', '\n)'],
      ['go', 'import (\n', '\n)'],
      ['rust', 'impl A {\n', '\n}'],
      ['rust', 'use a::{\n', '\n};'],
      ['java', 'public class A {\n', '\n}'],
    ];
    for (const [language, open, close] of bodies) {
      for (const line of lines) {
        for (const text of [line, open + line + close]) {
          const started = performance.now();
          extractDefinitions(language, text);
          const elapsed = performance.now() - started;
          const shown = JSON.stringify(text.slice(0, 24));
          assert.ok(elapsed < LONG_LINE_BOUND_MS, `${language} on ${shown}…: ${elapsed.toFixed(1)} ms`);
        }
      }
    }
  });
});
