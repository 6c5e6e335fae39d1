/**
 * `--guide`: a short block in the project's agent-instructions file (CLAUDE.md, GEMINI.md,
 * AGENTS.md) that tells agents when to reach for Gardener instead of grepping. It sits between
 * two marker lines, so install replaces it in place and uninstall removes exactly it.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

export const GUIDE_BEGIN = '<!-- gardener:guide (managed by `gardener hosts install --guide`) -->';
export const GUIDE_END = '<!-- /gardener:guide -->';

export const GUIDE_TEXT = [
  '## Gardener (code memory over MCP)',
  '',
  '- Before grepping for where something lives, call `seek` (symbols first, then text).',
  '- Before a task that spans files, call `delegate` with the task: it names the files and rooms to read first.',
  '- Before renaming or changing a name, call `refs` with it: who uses it, by file and line, and in which definition.',
  '- Before changing a file, call `impact` with its path: what may break (the files that use or import it, nearest first) and the tests to run.',
  '- Results name files that changed since they were mapped as stale: re-read those before relying on them.',
  '- `session_handshake` says which brain serves this folder and how fresh it is.',
].join('\n');

export function guideBlock(): string {
  return `${GUIDE_BEGIN}\n${GUIDE_TEXT}\n${GUIDE_END}\n`;
}

function withoutBlock(text: string): { text: string; had: boolean } {
  const start = text.indexOf(GUIDE_BEGIN);
  if (start === -1) return { text, had: false };
  const endAt = text.indexOf(GUIDE_END, start);
  if (endAt === -1) return { text, had: false }; // a begin without an end was edited by hand: leave it
  let end = endAt + GUIDE_END.length;
  if (text[end] === '\n') end++;
  let before = text.slice(0, start);
  if (before.endsWith('\n\n')) before = before.slice(0, -1); // the blank line install put before it
  return { text: before + text.slice(end), had: true };
}

/** Writes (or replaces) the block; true when the file changed. */
export function setGuide(file: string, block: string): boolean {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const { text, had } = withoutBlock(before);
  let after: string;
  if (had) {
    const at = before.indexOf(GUIDE_BEGIN); // the block goes back where it was
    after = before.slice(0, at) + block + before.slice(before.indexOf(GUIDE_END, at) + GUIDE_END.length).replace(/^\n/, '');
  } else {
    const gap = text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    after = text + gap + block;
  }
  if (after === before) return false;
  writeFileSync(file, after);
  return true;
}

/** Removes the block; a file left empty is removed. True when the file changed. */
export function removeGuide(file: string): boolean {
  if (!existsSync(file)) return false;
  const { text, had } = withoutBlock(readFileSync(file, 'utf8'));
  if (!had) return false;
  if (text.trim() === '') rmSync(file);
  else writeFileSync(file, text.replace(/\n{3,}$/, '\n'));
  return true;
}
