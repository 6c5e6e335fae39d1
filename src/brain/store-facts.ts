/**
 * What a brain's store says of it, read from the file without opening the brain (read-only, no
 * writer, no watcher): for brains the owner has not opened (the page's brains view) and for
 * `gardener brains`. Throws what openStore throws (too new, corrupt, unreadable).
 */
import { openStore, readStatus, readVigil } from '../store/index.js';

export interface StoreFacts {
  armed: boolean;
  last_tick_at: string | null;
  /** When the map last advanced (what recall answers call fresh_as_of). */
  fresh_as_of: string | null;
  backlog: number;
  files: number;
  symbols: number;
  alerts: number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function readStoreFacts(file: string): StoreFacts {
  const db = openStore(file, { readonly: true });
  try {
    const v = readVigil(db);
    const st = readStatus(db);
    return { armed: v.armed, last_tick_at: iso(v.lastTickAt), fresh_as_of: iso(v.lastAdvancedAt), backlog: st.backlog, files: st.files, symbols: st.symbols, alerts: st.alerts };
  } finally {
    db.close();
  }
}
