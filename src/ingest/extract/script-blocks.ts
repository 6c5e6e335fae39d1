/**
 * Vue and Svelte single-file components: their definitions and imports are those of their
 * `<script>` blocks, read by the TypeScript/JavaScript scanner with lines shifted to where the
 * block sits in the component. The markup and styles have no definitions to offer.
 */
import type { Extraction } from './types.js';

/** `<script …>` to `</script>`; the attributes say TypeScript (`lang="ts"`) or not. */
const SCRIPT_BLOCK = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

export function extractScriptBlocks(
  text: string,
  scan: (language: 'typescript' | 'javascript', text: string) => Extraction,
): Extraction {
  const out: Required<Extraction> = { symbols: [], imports: [], references: [] };
  for (const m of text.matchAll(SCRIPT_BLOCK)) {
    const attributes = m[1]!;
    const body = m[2]!;
    const bodyStart = m.index! + m[0].indexOf('>') + 1;
    const offset = countNewlines(text, bodyStart);
    const language = /\blang\s*=\s*["']?(?:ts|typescript|tsx)\b/i.test(attributes) ? 'typescript' : 'javascript';
    const found = scan(language, body);
    for (const s of found.symbols) out.symbols.push({ ...s, line: s.line + offset });
    for (const i of found.imports) out.imports.push({ ...i, line: i.line + offset });
    for (const r of found.references ?? []) out.references.push({ ...r, line: r.line + offset });
  }
  return out;
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
