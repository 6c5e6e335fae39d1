/**
 * A prior on where changes are made: generated copies (dist/, *.min.js, vendored code) almost
 * never, tests (and their fixtures and snapshots), docs (and `.d.ts` declarations, which
 * describe code written elsewhere) and data files less often than sources.
 * It multiplies a file's fused score.
 */
import { DATA_FILE_FACTOR, DOC_FILE_FACTOR, GENERATED_FILE_FACTOR, TEST_FILE_FACTOR } from './weights.js';

export type PathClass = 'generated' | 'test' | 'doc' | 'data' | 'source';

const GENERATED = [/(^|\/)([\w.-]*[_-])?(dist|build|vendor|node_modules|generated)\//, /\.min\.[^/]+$/, /(\.pb|_gen|\.gen|\.generated)\.[^/]+$/];
const TEST = [/(^|\/)[_.]?(tests?|__tests__|spec|specs|testdata|test_data|fixtures?|__fixtures__|__mocks__|snapshots|__snapshots__)\//, /\.(test|spec)\.[^/]+$/, /_test\.go$/, /(^|\/)test_[^/]*\.py$/, /\.snap$/];
const DOC = [/(^|\/)[_.]?(docs?|examples?)\//, /\.(md|mdx|rst|txt|adoc)$/, /\.d\.[cm]?ts$/, /(^|\/)(changelog|changes|history|license|licence|copying|notice|authors|contributors)[^/]*$/];
/** Data and settings rather than logic: a fix is rarely made there (a schema generated from code, CI settings, a lock file). */
const DATA = [/\.(json|jsonc|ya?ml|toml|lock|csv|tsv|xml|ini|cfg|conf|svg|png|jpe?g|gif|ico)$/];

export function pathClass(path: string): PathClass {
  const p = path.toLowerCase();
  if (GENERATED.some((re) => re.test(p))) return 'generated';
  if (TEST.some((re) => re.test(p))) return 'test';
  if (DOC.some((re) => re.test(p))) return 'doc';
  if (DATA.some((re) => re.test(p))) return 'data';
  return 'source';
}

const FACTOR: Record<PathClass, number> = { generated: GENERATED_FILE_FACTOR, test: TEST_FILE_FACTOR, doc: DOC_FILE_FACTOR, data: DATA_FILE_FACTOR, source: 1 };

export function pathPrior(path: string): number {
  return FACTOR[pathClass(path)];
}
