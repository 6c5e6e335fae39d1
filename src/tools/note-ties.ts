/**
 * What `remember` ties a note to, read when it is written: each tied file's content hash, and
 * for a definition its line, as the file is on disk now.
 *
 * The hash is taken from the file, not only from the map: an agent often writes a note right
 * after an edit the map has not seen yet, and a hash from the map would be of the old content,
 * marking the note stale as soon as the map caught up with the edit it describes. The files are
 * read and hashed in the pool (never on the main thread), against the map's hash: a file the map
 * already holds as it is costs a read and a hash; only one that differs is extracted again, to
 * find its definitions as they are now, and is queued for re-ingest (the map is behind it; recall
 * names it pending until a drain re-reads it). A file must be in the map (that is what a note is tied
 * to and what a reader compares with); a definition must be in its file.
 */
import type { Brain } from '../brain/index.js';
import type { Session } from '../session/index.js';
import { InvalidArgumentError } from '../errors.js';
import { listRoots, type NoteTie } from '../store/index.js';
import { DEFAULT_MAX_INDEX_BYTES } from '../vigil/index.js';
import type { SymbolDef } from '../ingest/extract/types.js';
import type { BacklogItem } from '../../workers/types.js';

export interface DefinitionRef {
  path: string;
  name: string;
}

/** Definitions named in a refusal, so the caller can pick the right one. */
const NAMES_LISTED = 12;

type Wanted = { asked: string; rootId: number; root: string; rel: string };

/** The root-relative files and the ties for a note; throws InvalidArgumentError naming what is wrong. */
export async function tieNote(brain: Brain, session: Session, files: readonly string[], definitions: readonly DefinitionRef[], signal?: AbortSignal): Promise<{ files: string[]; ties: NoteTie[]; behind: { rootId: number; path: string }[] }> {
  if (files.length === 0 && definitions.length === 0) return { files: [], ties: [], behind: [] };
  const db = brain.reader;
  const rootIds = new Map(listRoots(db).map((r) => [r.path, r.id]));
  const resolve = (asked: string): Wanted => {
    const { root, rel } = session.resolvePath(brain, asked);
    const rootId = rootIds.get(root);
    if (rootId === undefined) throw notMapped(asked, rel);
    return { asked, rootId, root, rel };
  };
  const fileWants = files.map(resolve);
  const defWants = definitions.map((d) => ({ ...resolve(d.path), name: d.name }));

  // One read of each distinct file, against what the map holds of it.
  const mapped = db.prepare('SELECT hash, symbols FROM files WHERE root_id = ? AND path = ?');
  const distinct = new Map<string, Wanted & { hash: string; symbols: string }>();
  for (const w of [...fileWants, ...defWants]) {
    const key = `${w.rootId}\0${w.rel}`;
    if (distinct.has(key)) continue;
    const row = mapped.get<{ hash: string; symbols: string }>(w.rootId, w.rel);
    if (!row) throw notMapped(w.asked, w.rel);
    distinct.set(key, { ...w, ...row });
  }
  const entries = [...distinct.values()];
  const items: BacklogItem[] = entries.map((e, id) => ({ id, rootId: e.rootId, path: e.rel, knownHash: e.hash }));
  const roots = Object.fromEntries(entries.map((e) => [e.rootId, e.root]));
  const { results } = await brain.pool.hashExtract({ roots, items, maxIndexBytes: DEFAULT_MAX_INDEX_BYTES, references: false }, signal);
  const now = new Map<string, { hash: string; symbols: () => SymbolDef[] }>();
  const behind: { rootId: number; path: string }[] = [];
  for (const r of results) {
    const e = entries[r.id]!;
    const key = `${e.rootId}\0${e.rel}`;
    if (r.status === 'unchanged') now.set(key, { hash: e.hash, symbols: () => JSON.parse(e.symbols) as SymbolDef[] });
    else if (r.status === 'ingested') {
      now.set(key, { hash: r.hash, symbols: () => JSON.parse(r.symbolsJson) as SymbolDef[] });
      behind.push({ rootId: e.rootId, path: e.rel });
    }
    else if (r.status === 'deleted') throw new InvalidArgumentError(`${e.asked} is in this brain's map but no longer on disk: a note cannot be tied to a file that is gone`);
    else throw new InvalidArgumentError(`${e.asked} could not be read to tie the note to it (${r.code}: ${r.message})`);
  }

  const ties: NoteTie[] = [];
  const tiedFiles = new Set<string>();
  for (const w of fileWants) {
    const key = `${w.rootId}\0${w.rel}`;
    if (tiedFiles.has(key)) continue;
    tiedFiles.add(key);
    ties.push({ rootId: w.rootId, path: w.rel, hash: now.get(key)!.hash });
  }
  const tiedDefs = new Set<string>();
  for (const d of defWants) {
    const key = `${d.rootId}\0${d.rel}`;
    if (tiedDefs.has(`${key}\0${d.name}`)) continue;
    tiedDefs.add(`${key}\0${d.name}`);
    const seen = now.get(key)!;
    const defs = seen.symbols();
    const def = defs.find((s) => s.name === d.name);
    if (!def) throw noDefinition(d.name, d.asked, defs);
    ties.push({ rootId: d.rootId, path: d.rel, hash: seen.hash, name: d.name, line: def.line });
  }
  return { files: [...new Set(fileWants.map((w) => w.rel))], ties, behind };
}

function notMapped(asked: string, rel: string): InvalidArgumentError {
  return new InvalidArgumentError(
    `${asked} is not in this brain's map: a note is tied to mapped files (a new file is mapped at the next tick; \`scan {paths: ["${rel}"]}\` maps it now)`,
  );
}

function noDefinition(name: string, asked: string, defs: SymbolDef[]): InvalidArgumentError {
  const names = [...new Set(defs.map((s) => s.name))];
  const listed = names.length === 0 ? 'it has no definitions'
    : `its definitions: ${names.slice(0, NAMES_LISTED).join(', ')}${names.length > NAMES_LISTED ? `, … (${names.length} in all)` : ''}`;
  return new InvalidArgumentError(`no definition named ${name} in ${asked} (${listed})`);
}
