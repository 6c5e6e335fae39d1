/**
 * Rust `use` declarations as imports: one import per leaf path of the tree (`use a::{b, c::d}`
 * gives `a::b` and `a::c::d`; `self` and `*` leaves give their prefix). A tree may span lines,
 * so its text is gathered until the `;` and read then; the reading is iterative, because trees
 * can be nested deep.
 */
import { isWordChar } from './line-lexer.js';
import type { ImportRef } from './types.js';

/** A `use` statement longer than this is not a real one; it is dropped rather than parsed. */
const USE_STATEMENT_MAX_CHARS = 16_384;

/**
 * Records the imports of a `use` tree (the text after `use`) once its `;` has been seen, and
 * returns ''; returns the text unchanged while the statement is still open.
 */
export function finishUse(tree: string, line: number, imports: ImportRef[]): string {
  const semicolon = tree.indexOf(';');
  if (semicolon < 0) return tree.length > USE_STATEMENT_MAX_CHARS ? '' : tree;
  if (semicolon > USE_STATEMENT_MAX_CHARS) return '';
  for (const module of useLeaves(tree.slice(0, semicolon))) imports.push({ module, line });
  return '';
}

/** The line without its trailing `//` comment, which a `use` tree may carry on any of its lines. */
export function stripLineComment(line: string): string {
  const at = line.indexOf('//');
  return at < 0 ? line : line.slice(0, at);
}

/** The leaf paths of a use tree, in source order, without recursion (trees can be nested deep). */
function useLeaves(tree: string): string[] {
  const leaves: string[] = [];
  const prefixes: string[] = [''];
  let path = '';
  let skipAlias = false;
  const emit = () => {
    if (path === '') return;
    const prefix = prefixes[prefixes.length - 1]!;
    const last = path.lastIndexOf('::');
    const tail = last < 0 ? path : path.slice(last + 2);
    let full = path;
    if (tail === 'self' || tail === '*') full = last < 0 ? '' : path.slice(0, last);
    full = prefix === '' ? full : full === '' ? prefix : prefix + '::' + full;
    if (full !== '') leaves.push(full);
    path = '';
  };
  const n = tree.length;
  let i = 0;
  while (i < n) {
    const c = tree.charCodeAt(i);
    if (isWordChar(c) || c === 42) {
      let j = i + 1;
      if (c !== 42) while (j < n && isWordChar(tree.charCodeAt(j))) j++;
      const word = tree.slice(i, j);
      i = j;
      if (skipAlias) skipAlias = false;
      else if (word === 'as') skipAlias = true;
      else path = path === '' ? word : path + '::' + word;
      continue;
    }
    if (c === 123) {
      const prefix = prefixes[prefixes.length - 1]!;
      prefixes.push(prefix === '' ? path : path === '' ? prefix : prefix + '::' + path);
      path = '';
    } else if (c === 44) emit();
    else if (c === 125) {
      emit();
      if (prefixes.length > 1) prefixes.pop();
    } else if (c === 114 && tree.charCodeAt(i + 1) === 35) i++; // r#ident
    i++;
  }
  emit();
  return leaves;
}
