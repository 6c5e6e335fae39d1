/**
 * Which changed files can be a recall answer: source files of a language Gardener extracts
 * definitions from, and not tests, docs, examples, fixtures or generated copies (a task's
 * answer is where the change is made, not where it is tested or described).
 */
import { languageOf } from '../../src/ingest/language.js';

const CODE_LANGUAGES = new Set(['typescript', 'javascript', 'python', 'go', 'rust', 'java']);

const EXCLUDED: readonly RegExp[] = [
  // tests
  /(^|\/)[_.]?(tests?|__tests__|spec|specs|testing|e2e|__mocks__|mocks?)\//,
  /\.(test|spec|bench)\.[^/]+$/,
  /_test\.go$/,
  /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/,
  // docs and examples
  /(^|\/)[_.]?(docs?|documentation|website|site|examples?|samples?|demos?|sandbox|playground)\//,
  // fixtures
  /(^|\/)[_.]?(fixtures?|__fixtures__|testdata|test-data|snapshots?|__snapshots__)\//,
  // generated copies
  /(^|\/)([\w.-]*[_-])?(dist|build|out|vendor|node_modules|generated|coverage)\//,
  /\.min\.[^/]+$/,
  /\.d\.[cm]?ts$/,
  /(\.pb|_gen|\.gen|\.generated|_generated)\.[^/]+$/,
];

export function isAnswerPath(path: string): boolean {
  const lang = languageOf(path);
  if (lang === null || !CODE_LANGUAGES.has(lang)) return false;
  const lower = path.toLowerCase();
  return !EXCLUDED.some((re) => re.test(lower));
}
