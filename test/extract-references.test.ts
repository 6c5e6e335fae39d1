import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractDefinitions } from '../src/ingest/extract/index.js';

/** `line:name/kind@in` for each reference, the way a reader scans them. */
function uses(language: string, text: string): string[] {
  return (extractDefinitions(language, text).references ?? []).map((r) => `${r.line}:${r.name}/${r.kind}${r.in === undefined ? '' : '@' + r.in}`);
}

describe('the six scanners emit references with their callers', () => {
  test('TypeScript: imports, decorators, inheritance, types, calls, member calls and new', () => {
    const got = uses(
      'typescript',
      [
        "import { parse, b as c, type Opts } from './x.js';",
        "import * as ns from './ns.js';",
        '@Component({ a: 1 })',
        'export class Shop extends Base implements Store<Item> {',
        '  private cache: Cache = new Cache();',
        '  run(o: Opts): Result {',
        "    // parse(notACall) and 'parse(' in a string are not uses",
        '    if (o) helper(o);',
        '    ns.thing();',
        '    return Util.make(parse(o));',
        '  }',
        '}',
        'export function top() { return new Thing(); }',
        'later();',
      ].join('\n'),
    );
    for (const want of [
      '1:parse/other', '1:b/other', '1:Opts/other', '3:Component/decorator', '4:Base/inherit@Shop', '4:Store/inherit@Shop',
      '5:Cache/new@Shop', '6:Opts/type@run', '6:Result/type@run', '8:helper/call@run', '9:thing/member@run',
      '10:make/member@run', '10:Util/other@run', '10:parse/call@run', '13:Thing/new@top', '14:later/call',
    ]) {
      assert.ok(got.includes(want), `${want} in ${got.join(' ')}`);
    }
    assert.ok(!got.some((u) => u.startsWith('7:')), 'comments and strings name nothing');
    assert.ok(!got.some((u) => /:(if|c|ns|run|top|Shop)\//.test(u)), `no keyword, local alias or own definition: ${got.join(' ')}`);
  });

  test('Python: from-imports, decorators, bases, hints and calls', () => {
    const got = uses(
      'python',
      ['from .a import Foo, bar as b', '@decor', 'class K(base.Base, Mixin):', '    def run(self, x: Opts):', '        helper(x)', '        self.go()', '        return len(Thing(x))', 'top()'].join('\n'),
    );
    assert.deepEqual(got, [
      '1:Foo/other', '1:bar/other', '2:decor/decorator', '3:Base/inherit@K', '3:Mixin/inherit@K', '4:Opts/type@run',
      '5:helper/call@run', '6:go/member@run', '7:Thing/call@run', '8:top/call',
    ]);
  });

  test('Go: calls, package-qualified calls and signature types', () => {
    const got = uses('go', ['package x', 'func (s *Srv) Run(c Ctx) error {', '\tfmt.Println(helper(len(s)))', '}', 'func Top() { Run2() }'].join('\n'));
    assert.deepEqual(got, ['2:Srv/type@Run', '2:Ctx/type@Run', '3:Println/member@Run', '3:helper/call@Run', '5:Run2/call@Top']);
  });

  test('Rust: use names, trait impls, paths and calls', () => {
    const got = uses(
      'rust',
      ['use crate::a::{Foo, bar};', 'impl Display for Foo {', '    fn fmt(&self, f: &mut Formatter) -> Res {', '        helper(1);', '        Foo::build(2);', '    }', '}'].join('\n'),
    );
    assert.deepEqual(got, ['1:Foo/other', '1:bar/other', '2:Display/inherit', '2:Foo/type', '3:Formatter/type@fmt', '3:Res/type@fmt', '4:helper/call@fmt', '5:build/member@fmt', '5:Foo/other@fmt']);
  });

  test('Java: imports, extends and implements, static calls and new', () => {
    const got = uses(
      'java',
      ['import java.util.List;', 'public class A extends B implements C {', '  public Res run(Opts o) {', '    helper(1);', '    Util.make(2);', '    return new Thing(o);', '  }', '}'].join('\n'),
    );
    assert.deepEqual(got, ['1:List/other', '2:B/inherit@A', '2:C/inherit@A', '3:Res/type@run', '3:Opts/type@run', '4:helper/call@run', '5:make/member@run', '5:Util/other@run', '6:Thing/new@run']);
  });

  test('TypeScript: JSX elements and type arguments inside a body are uses too', () => {
    const got = uses('typescript', ['export function View() {', '  const seen: Set<Item> = new Set();', '  return <Panel size={seen.size}><Row /></Panel>;', '}'].join('\n'));
    assert.deepEqual(got, ['2:Item/type@View', '3:Panel/other@View', '3:Row/other@View']);
  });

  test('JavaScript goes through the same scanner', () => {
    assert.deepEqual(uses('javascript', "const { a } = require('./a');\nmodule.exports = () => a.run(build());"), ['2:run/member', '2:build/call']);
  });
});
