/**
 * The resources a host can show and a person can @-mention: the session brain's status, its
 * skeleton as Markdown, every note, and two templates (a file's outline, a definition's uses).
 * Status, skeleton and uses are tool answers at a stable URI (through the dispatch seam:
 * tool-answers.ts); notes and outlines read the map as `seek` does. Paths are confined to the
 * brain's roots as every tool confines them (session.resolvePath → src/paths/confine-path.ts),
 * and a secret-bearing file is served by its path only: its content was never read. This is
 * the one registry of resources; session-feed.ts says when the subscribable ones change.
 */
import { ResourceNotFoundError } from '../errors.js';
import type { Session } from '../session/index.js';
import { bootNotes, listRoots, mappedFile, symbolsOf } from '../store/index.js';
import { isSecretFile, secretFileReason } from '../ingest/secrets/index.js';
import { freshnessOf } from '../tools/freshness.js';
import { withMarks } from '../tools/note-marks.js';
import { askTool, compact, freshnessLine, withinKeepingFreshness } from './tool-answers.js';
import { skeletonMarkdown } from './skeleton-markdown.js';

export const STATUS_URI = 'gardener://status';
export const SKELETON_URI = 'gardener://skeleton';
const NOTE_PREFIX = 'gardener://notes/';
const OUTLINE_PREFIX = 'gardener://outline/';
const USES_PREFIX = 'gardener://uses/';

/** Resources that change on their own (after a tick) and so may be subscribed to. */
export const SUBSCRIBABLE: ReadonlySet<string> = new Set([STATUS_URI, SKELETON_URI]);
/** Notes listed as resources, pinned then newest first; the rest are reached by id. */
export const MAX_LISTED_NOTES = 500;
/** Notes scanned to read one by id (a brain's notes are hundreds, not millions). */
const MAX_NOTES_READ = 100_000;
/** Definitions an outline lists. */
export const MAX_OUTLINE_DEFINITIONS = 500;
/** Longest resource text, in characters. */
export const MAX_RESOURCE_CHARS = 64_000;

type Contents = { uri: string; mimeType: string; text: string };

/** The fixed resources, then one per note (a brain is needed for notes; none: the fixed two). */
export function listResources(session: Session) {
  const fixed = [
    { uri: STATUS_URI, name: 'status', title: 'Brain status', description: "The session brain: files, definitions, notes, alerts and how fresh the map is (subscribe: updated after a tick that changed the map)", mimeType: 'application/json' },
    { uri: SKELETON_URI, name: 'skeleton', title: 'Architecture skeleton', description: 'The rooms of the architecture (ratified, else the candidate) as Markdown (subscribe: updated after a tick that changed the map)', mimeType: 'text/markdown' },
  ];
  const brain = session.brain();
  if (!brain) return { resources: fixed };
  const notes = bootNotes(brain.reader, MAX_LISTED_NOTES).map((n) => ({
    uri: `${NOTE_PREFIX}${n.id}`,
    name: `note-${n.id}`,
    title: firstLine(n.text),
    description: [n.pinned ? 'pinned' : '', n.scope === 'team' ? 'team note' : '', ...n.tags].filter(Boolean).join(', ') || undefined,
    mimeType: 'text/markdown',
  }));
  return { resources: [...fixed, ...notes] };
}

export const RESOURCE_TEMPLATES = [
  { uriTemplate: `${OUTLINE_PREFIX}{+path}`, name: 'outline', title: "A file's outline", description: "A mapped file's definitions with their lines (a path relative to a root of the brain)", mimeType: 'text/markdown' },
  { uriTemplate: `${USES_PREFIX}{name}`, name: 'uses', title: "A definition's uses", description: 'Where a name is defined and every place that uses it (the refs answer)', mimeType: 'application/json' },
] as const;

export async function readResource(session: Session, uri: string, signal: AbortSignal): Promise<{ contents: Contents[] }> {
  const text = (mimeType: string, body: string) => ({ contents: [{ uri, mimeType, text: withinKeepingFreshness(body, MAX_RESOURCE_CHARS) }] });
  if (uri === STATUS_URI) return text('application/json', compact(await status(session, signal)));
  if (uri === SKELETON_URI) {
    const view = await askTool(session, 'skeleton', { which: 'auto' }, signal);
    if (!view.ok) return text('text/markdown', `# Skeleton\n\nNo answer: ${view.error.message} (${view.error.code})\n`);
    const north = await askTool(session, 'north', {}, signal);
    return text('text/markdown', `${skeletonMarkdown(view.value)}\n${freshnessLine(north.ok ? north.value.freshness : undefined)}\n`);
  }
  if (uri.startsWith(NOTE_PREFIX)) return text('text/markdown', note(session, uri));
  if (uri.startsWith(OUTLINE_PREFIX)) return text('text/markdown', outline(session, uri, decodePart(uri, uri.slice(OUTLINE_PREFIX.length))));
  if (uri.startsWith(USES_PREFIX)) {
    const name = decodePart(uri, uri.slice(USES_PREFIX.length));
    const refs = await askTool(session, 'refs', { name }, signal);
    if (!refs.ok) throw new ResourceNotFoundError(uri, refs.error.message);
    return text('application/json', compact(refs.value));
  }
  throw new ResourceNotFoundError(uri, 'this server serves gardener://status, gardener://skeleton, gardener://notes/<id>, gardener://outline/<path> and gardener://uses/<name>');
}

/** The status resource: north's counts and freshness, the notes and unacknowledged alerts. */
async function status(session: Session, signal: AbortSignal): Promise<Record<string, unknown>> {
  const north = await askTool(session, 'north', {}, signal);
  if (!north.ok) return { brain: null, folder: session.anchor, error: north.error, hint: 'call the ingest tool to map this folder' };
  const alerts = await askTool(session, 'alerts_list', {}, signal);
  const boot = await askTool(session, 'boot_memory', { budget_tokens: 100 }, signal);
  const { brain, roots, files, symbols, languages, freshness } = north.value;
  return {
    brain,
    roots: (roots as { path: string }[]).map((r) => r.path),
    files,
    symbols,
    notes: boot.ok ? boot.value.summary?.notes : undefined,
    languages: (languages as unknown[]).slice(0, 5),
    alerts: alerts.ok ? (alerts.value.alerts as unknown[]).length : undefined,
    freshness,
  };
}

function note(session: Session, uri: string): string {
  const id = Number(uri.slice(NOTE_PREFIX.length));
  const brain = session.brain();
  if (!brain) throw new ResourceNotFoundError(uri, 'this folder has no brain yet (call ingest)');
  const found = Number.isSafeInteger(id) && id > 0 ? bootNotes(brain.reader, MAX_NOTES_READ).find((n) => n.id === id) : undefined;
  if (!found) throw new ResourceNotFoundError(uri, 'no note with that id (it may have been forgotten): resources/list lists them');
  const [n] = withMarks(brain.reader, [found]);
  const lines = [
    `# Note ${n!.id}${n!.pinned ? ' (pinned)' : ''}${n!.scope === 'team' ? ` (team: ${n!.file})` : ''}`,
    '',
    n!.text,
    '',
    ...(n!.tags.length ? [`Tags: ${n!.tags.join(', ')}`] : []),
    ...(n!.files.length ? [`Files: ${n!.files.join(', ')}`] : []),
    ...(n!.stale ? [`STALE: ${compact(n!.stale)}`] : []),
    `Written: ${new Date(n!.createdAt).toISOString()}`,
    freshnessLine(freshnessOf(brain, n!.files)),
  ];
  return lines.join('\n') + '\n';
}

function outline(session: Session, uri: string, path: string): string {
  const brain = session.brain();
  if (!brain) throw new ResourceNotFoundError(uri, 'this folder has no brain yet (call ingest)');
  let place: { root: string; rel: string };
  try {
    place = session.resolvePath(brain, path);
  } catch (err) {
    throw new ResourceNotFoundError(uri, (err as Error).message);
  }
  const root = listRoots(brain.reader).find((r) => r.path === place.root);
  const file = root ? mappedFile(brain.reader, root.id, place.rel) : null;
  if (!root || !file) throw new ResourceNotFoundError(uri, `${place.rel} is not in the map (not yet ingested, ignored, or not a file)`);
  const head = `# ${place.rel}${file.language ? ` (${file.language}, ${file.lines} lines)` : ` (${file.lines} lines)`}`;
  if (isSecretFile(place.rel)) {
    return `${head}\n\nA secret-bearing file (${secretFileReason(place.rel) ?? 'credentials'}): mapped by its path only; its content is never read into the map.\n`;
  }
  const defs = symbolsOf(brain.reader, root.id, place.rel, MAX_OUTLINE_DEFINITIONS);
  return [
    head,
    '',
    ...(defs.length ? defs.map((d) => `- ${d.kind} \`${d.name}\` line ${d.line}${d.exported ? ' (exported)' : ''}`) : ['(no definitions)']),
    ...(file.symbols > defs.length ? [`… ${file.symbols - defs.length} more`] : []),
    '',
    freshnessLine(freshnessOf(brain, [place.rel])),
  ].join('\n') + '\n';
}

function decodePart(uri: string, part: string): string {
  try {
    const decoded = decodeURIComponent(part);
    if (decoded) return decoded;
  } catch {
    // fall through: not valid percent-encoding
  }
  throw new ResourceNotFoundError(uri, 'the URI names nothing after its prefix (or is not valid percent-encoding)');
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
