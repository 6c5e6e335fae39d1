/**
 * A prior on where changes are made: generated copies (dist/, *.min.js, vendored code) almost
 * never, tests and docs less often than sources. It multiplies a file's fused score.
 */
import { DOC_FILE_FACTOR, GENERATED_FILE_FACTOR, TEST_FILE_FACTOR } from './weights.js';

const GENERATED = [/(^|\/)([\w.-]*[_-])?(dist|build|vendor|node_modules|generated)\//, /\.min\.[^/]+$/, /(\.pb|_gen|\.gen|\.generated)\.[^/]+$/];
const TEST = [/(^|\/)[_.]?(tests?|__tests__|spec|specs|testdata|fixtures?|__mocks__)\//, /\.(test|spec)\.[^/]+$/, /_test\.go$/, /(^|\/)test_[^/]*\.py$/];
const DOC = [/(^|\/)[_.]?(docs?|examples?)\//, /\.(md|mdx|rst|txt)$/, /(^|\/)(changelog|changes|history|license|licence|copying|notice|authors|contributors)[^/]*$/];

export function pathPrior(path: string): number {
  const p = path.toLowerCase();
  if (GENERATED.some((re) => re.test(p))) return GENERATED_FILE_FACTOR;
  if (TEST.some((re) => re.test(p))) return TEST_FILE_FACTOR;
  if (DOC.some((re) => re.test(p))) return DOC_FILE_FACTOR;
  return 1;
}
