/**
 * The prompts a host shows as slash commands: each one a few tool answers (through the dispatch
 * seam, tool-answers.ts) framed for a person who wants the model to start from what the memory
 * holds. Every text fits MAX_PROMPT_CHARS and ends with how fresh the map behind it is. This is
 * the one registry of prompts, as tools/index.ts is of tools; their arguments complete through
 * completions.ts (`complete` says which list each argument draws from).
 */
import { InvalidArgumentError, UnknownPromptError } from '../errors.js';
import type { Session } from '../session/index.js';
import { askTool, compact, freshnessLine, withinKeepingFreshness, type Answer } from './tool-answers.js';

/** Longest prompt text, in characters (about 3k tokens): a start, not a context dump. */
export const MAX_PROMPT_CHARS = 12_000;
/** Changed files whose impact before-commit asks for (each is one `impact` call). */
export const BEFORE_COMMIT_FILES = 8;
/** Notes boot_memory reads for orient, in tokens. */
const ORIENT_NOTES_BUDGET_TOKENS = 1200;
/** Tokens of the context pack `context` asks `delegate` for. */
const CONTEXT_BUDGET_TOKENS = 2500;

export interface PromptArgument {
  name: string;
  description: string;
  required?: boolean;
  /** Which list completes it (completions.ts); none: free text. */
  complete?: 'symbol' | 'path';
}

export interface PromptDef {
  name: string;
  title: string;
  description: string;
  arguments: readonly PromptArgument[];
  build(session: Session, args: Record<string, string>, signal: AbortSignal): Promise<string>;
}

const noBrain = (a: Extract<Answer, { ok: false }>) =>
  `Gardener has no answer here: ${a.error.message} (${a.error.code}). If this folder has no memory yet, call the \`ingest\` tool, then ask again.`;

const orient: PromptDef = {
  name: 'orient',
  title: 'Orient in this repository',
  description: "Start a session from Gardener's memory: the layout (north) and the pinned and recent notes (boot_memory).",
  arguments: [],
  async build(session, _args, signal) {
    const north = await askTool(session, 'north', {}, signal);
    if (!north.ok) return noBrain(north);
    const boot = await askTool(session, 'boot_memory', { budget_tokens: ORIENT_NOTES_BUDGET_TOKENS }, signal);
    const { freshness, ...layout } = north.value;
    const notes = boot.ok ? (boot.value.notes as Note[]) : [];
    return [
      "Orient yourself in this repository from Gardener's memory before reading files. Prefer `seek`, `refs` and `impact` to opening files blindly; read the files named as pending directly.",
      '',
      '## Layout (north)',
      compact(layout),
      '',
      `## Notes (${notes.length}, pinned first)`,
      ...(notes.length ? notes.map(noteLine) : ['(none yet: `remember` what the next session should know)']),
      '',
      freshnessLine(freshness),
    ].join('\n');
  },
};

const whoUses: PromptDef = {
  name: 'who-uses',
  title: 'Who uses a name',
  description: 'A definition, every place that uses it (refs) and what may break if it changes (impact), with the tests to run.',
  arguments: [
    { name: 'name', description: 'A definition name (one identifier, e.g. parseConfig)', required: true, complete: 'symbol' },
    { name: 'path', description: 'The file of the definition, when several share the name', complete: 'path' },
  ],
  async build(session, args, signal) {
    const name = required(args, 'name', 'who-uses');
    const refs = await askTool(session, 'refs', { name, ...(args.path ? { path: args.path } : {}), budget_tokens: 1800 }, signal);
    if (!refs.ok) return noBrain(refs);
    const impact = await askTool(session, 'impact', { name }, signal);
    const { freshness, ...uses } = refs.value;
    const lines = [
      `Who uses \`${name}\`, from Gardener's map. Check these places before changing it, and run the tests listed under impact.`,
      '',
      '## Definitions and uses (refs)',
      compact(uses),
      '',
      '## What may break (impact)',
      impact.ok ? compact(withoutFreshness(impact.value)) : `(impact did not answer: ${impact.error.message})`,
      '',
      freshnessLine(freshness),
    ];
    return lines.join('\n');
  },
};

const beforeCommit: PromptDef = {
  name: 'before-commit',
  title: 'Before committing',
  description: "The working tree's changes since HEAD, what they may break, the tests to run, and the notes tied to them that went stale.",
  arguments: [],
  async build(session, _args, signal) {
    const changes = await askTool(session, 'changes', { since: 'HEAD' }, signal);
    if (!changes.ok) return noBrain(changes);
    const changed = (changes.value.changes as { path: string; deleted: boolean }[]) ?? [];
    const tests = new Set<string>();
    const mayBreak = new Map<string, number>();
    for (const c of changed.filter((c) => !c.deleted).slice(0, BEFORE_COMMIT_FILES)) {
      const impact = await askTool(session, 'impact', { path: c.path, depth: 2 }, signal);
      if (!impact.ok) continue;
      for (const t of (impact.value.tests as string[]) ?? []) tests.add(t);
      for (const f of (impact.value.files as { path: string; distance: number }[]) ?? []) {
        mayBreak.set(f.path, Math.min(mayBreak.get(f.path) ?? Infinity, f.distance));
      }
    }
    const changedPaths = new Set(changed.map((c) => c.path));
    for (const p of changedPaths) mayBreak.delete(p);
    const boot = await askTool(session, 'boot_memory', { budget_tokens: 4000 }, signal);
    const stale = boot.ok ? (boot.value.notes as Note[]).filter((n) => n.stale || n.files?.some((f) => changedPaths.has(f))) : [];
    const near = [...mayBreak].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 40);
    return [
      'Review these changes before committing: run the tests listed, look at the files that may break, and update or `forget` the notes that went stale.',
      '',
      `## Changed since HEAD (${String(changes.value.total)})`,
      ...(changed.length ? changed.map((c) => `- ${c.path}${c.deleted ? ' (deleted)' : ''}`) : ['(nothing: the working tree matches HEAD)']),
      '',
      `## Tests to run (${tests.size})`,
      ...(tests.size ? [...tests].sort().map((t) => `- ${t}`) : ['(none found among the importers)']),
      '',
      `## May break (${mayBreak.size}, nearest first)`,
      ...near.map(([p, d]) => `- ${p} (distance ${d})`),
      '',
      `## Notes to review (${stale.length})`,
      ...stale.map(noteLine),
      '',
      freshnessLine(changes.value.freshness),
    ].join('\n');
  },
};

const context: PromptDef = {
  name: 'context',
  title: 'Context for a task',
  description: 'The files, symbols and notes that rank highest for a task (delegate), to start it or to hand it to a sub-agent.',
  arguments: [{ name: 'task', description: 'The task, in a sentence or a paragraph', required: true }],
  async build(session, args, signal) {
    const task = required(args, 'task', 'context');
    const pack = await askTool(session, 'delegate', { task, budget_tokens: CONTEXT_BUDGET_TOKENS }, signal);
    if (!pack.ok) return noBrain(pack);
    const { freshness, ...rest } = pack.value;
    return [
      `Task: ${task}`,
      '',
      "Start from what Gardener's memory ranks highest for it (files with their key symbols and rooms, then notes):",
      compact(rest),
      '',
      freshnessLine(freshness),
    ].join('\n');
  },
};

/** Every prompt, in list order. */
export const PROMPTS: readonly PromptDef[] = [orient, whoUses, beforeCommit, context];

/** prompts/list: what a host shows (no session needed: the list never changes). */
export function listPrompts() {
  return PROMPTS.map((p) => ({
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required ?? false })),
  }));
}

export function promptNamed(name: string): PromptDef | undefined {
  return PROMPTS.find((p) => p.name === name);
}

/** prompts/get: one user message, built from the tools' answers, within MAX_PROMPT_CHARS. */
export async function getPrompt(session: Session, name: string, args: Record<string, string>, signal: AbortSignal) {
  const prompt = promptNamed(name);
  if (!prompt) throw new UnknownPromptError(name, PROMPTS.map((p) => p.name));
  const text = withinKeepingFreshness(await prompt.build(session, args, signal), MAX_PROMPT_CHARS);
  return { description: prompt.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
}

interface Note {
  id: number;
  text: string;
  tags?: string[];
  files?: string[];
  pinned?: boolean;
  stale?: unknown[];
  scope?: string;
}

/** A note on one line: id, marks, its first 300 characters. */
function noteLine(n: Note): string {
  const marks = [n.pinned ? 'pinned' : '', n.scope === 'team' ? 'team' : '', n.stale ? 'STALE' : '', ...(n.tags ?? [])].filter(Boolean);
  const text = n.text.replace(/\s+/g, ' ').trim();
  return `- [${n.id}]${marks.length ? ` (${marks.join(', ')})` : ''} ${text.length > 300 ? `${text.slice(0, 299)}…` : text}`;
}

function required(args: Record<string, string>, name: string, prompt: string): string {
  const v = args[name]?.trim();
  if (!v) throw new InvalidArgumentError(`${prompt}: the argument "${name}" is required`);
  return v;
}

function withoutFreshness(v: Record<string, unknown>): Record<string, unknown> {
  const { freshness: _f, ...rest } = v;
  return rest;
}
