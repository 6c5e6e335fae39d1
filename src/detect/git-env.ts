/**
 * The environment every git child of Gardener runs with: the given one minus the variables
 * that would point git at another repository (set inside git hooks), with
 * GIT_OPTIONAL_LOCKS=0 (never take index.lock beside the user's own git) and no prompt.
 */
const REPO_LOCATING_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

export function gitEnvFrom(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
  for (const name of REPO_LOCATING_ENV) delete out[name];
  return out;
}
