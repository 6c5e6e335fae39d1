/**
 * A file's language, from its extension alone. Content sniffing (shebangs, modelines) would
 * cost a read we do not otherwise need for labelling, and the extension is right for almost
 * every file an agent asks about. Six languages get symbols and imports (see extract/); the
 * rest are labels only, so the code map can still be filtered by them.
 */
export type Language =
  | 'typescript'
  | 'javascript'
  | 'python'
  | 'go'
  | 'rust'
  | 'java'
  | 'markdown'
  | 'json'
  | 'yaml'
  | 'toml'
  | 'c'
  | 'cpp'
  | 'csharp'
  | 'ruby'
  | 'php'
  | 'shell'
  | 'css'
  | 'html'
  | 'sql'
  | 'kotlin'
  | 'swift';

const BY_EXTENSION: ReadonlyMap<string, Language> = new Map<string, Language>([
  ['ts', 'typescript'],
  ['tsx', 'typescript'],
  ['mts', 'typescript'],
  ['cts', 'typescript'],
  ['js', 'javascript'],
  ['jsx', 'javascript'],
  ['mjs', 'javascript'],
  ['cjs', 'javascript'],
  ['py', 'python'],
  ['pyi', 'python'],
  ['go', 'go'],
  ['rs', 'rust'],
  ['java', 'java'],
  ['md', 'markdown'],
  ['markdown', 'markdown'],
  ['json', 'json'],
  ['jsonc', 'json'],
  ['yml', 'yaml'],
  ['yaml', 'yaml'],
  ['toml', 'toml'],
  ['c', 'c'],
  ['h', 'c'],
  ['cc', 'cpp'],
  ['cpp', 'cpp'],
  ['cxx', 'cpp'],
  ['hh', 'cpp'],
  ['hpp', 'cpp'],
  ['hxx', 'cpp'],
  ['cs', 'csharp'],
  ['rb', 'ruby'],
  ['php', 'php'],
  ['sh', 'shell'],
  ['bash', 'shell'],
  ['zsh', 'shell'],
  ['css', 'css'],
  ['scss', 'css'],
  ['less', 'css'],
  ['html', 'html'],
  ['htm', 'html'],
  ['sql', 'sql'],
  ['kt', 'kotlin'],
  ['kts', 'kotlin'],
  ['swift', 'swift'],
]);

/** The language of `path` by its extension (case-insensitive), or null when it has none we know. */
export function languageOf(path: string): Language | null {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const dot = path.lastIndexOf('.');
  // A dot at the start of the base name is a dotfile (`.gitignore`), not an extension.
  if (dot <= slash + 1 || dot === path.length - 1) return null;
  return BY_EXTENSION.get(path.slice(dot + 1).toLowerCase()) ?? null;
}
