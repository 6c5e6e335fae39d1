/**
 * The `skeleton` tool's answer as Markdown, for the skeleton resource: a person reads rooms as
 * a list, not as JSON. Only what the answer holds is written; nothing is derived here.
 */

interface RoomView {
  name: string;
  purpose?: string;
  draft?: boolean;
  globs?: string[];
  may_use?: string[];
  files?: number;
  key_files?: unknown[];
  key_symbols?: unknown[];
  uses?: unknown[];
}

const label = (x: unknown): string => {
  if (typeof x === 'string') return x;
  if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    const name = o.path ?? o.name ?? o.room ?? o.to;
    const count = o.count ?? o.imports ?? o.edges;
    if (typeof name === 'string') return count === undefined ? name : `${name} (${String(count)})`;
  }
  return JSON.stringify(x);
};

export function skeletonMarkdown(view: Record<string, any>): string {
  if (view.state === 'none') return `# Skeleton\n\nNone yet. ${String(view.hint ?? '')}\n`;
  const state = view.state === 'ratified' ? 'ratified' : 'candidate (a proposal: edit it, then skeleton_ratify)';
  const out = [`# Skeleton: ${state}`, '', `store_version ${String(view.store_version)}; ${String(view.files ?? '?')} files; ${String(view.inside_share ?? '?')} of imports stay inside their room.`, ''];
  for (const r of (view.rooms ?? []) as RoomView[]) {
    out.push(`## ${r.name}${r.draft ? ' (draft)' : ''}`, '');
    if (r.purpose) out.push(r.purpose, '');
    if (r.globs?.length) out.push(`- globs: ${r.globs.map((g) => `\`${g}\``).join(', ')}`);
    out.push(`- files: ${String(r.files ?? 0)}`);
    if (r.may_use) out.push(`- may use: ${r.may_use.length ? r.may_use.join(', ') : '(nothing)'}`);
    if (r.key_files?.length) out.push(`- key files: ${r.key_files.map(label).join(', ')}`);
    if (r.key_symbols?.length) out.push(`- key symbols: ${r.key_symbols.map(label).join(', ')}`);
    if (r.uses?.length) out.push(`- uses: ${r.uses.map(label).join(', ')}`);
    out.push('');
  }
  const unroomed = view.unroomed as { count: number; paths: string[] } | undefined;
  if (unroomed?.count) out.push(`## In no room (${unroomed.count})`, '', ...unroomed.paths.map((p) => `- ${p}`), '');
  const violations = view.violations as { count: number; items: { file: string; line: number; module: string; from: string; to: string }[] } | undefined;
  if (violations?.count) {
    out.push(`## Imports breaking may_use (${violations.count})`, '', ...violations.items.map((v) => `- ${v.file}:${v.line} imports ${v.module} (${v.from} → ${v.to})`), '');
  }
  return out.join('\n');
}
