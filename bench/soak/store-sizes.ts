/**
 * What each brain's store takes on disk, for the soak's samples: brain.db and its WAL, in MB,
 * by brain kind (big, ts, plain). Memory is not all an owner left for a month can leak: a
 * full-text index that keeps dead entries past their merges, or a WAL never cut back, grows
 * the disk instead. Information in the report, not a target of issue 31.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';

export interface StoreSize {
  dbMb: number;
  walMb: number;
}

const MB = 1 << 20;

const sizeOf = (file: string) => {
  try {
    return statSync(file).size / MB;
  } catch {
    return 0;
  }
};

/** The store sizes of `brains` (kind -> brain id) in `home`. */
export function storeSizes(home: string, brains: readonly { kind: string; id: string }[]): Record<string, StoreSize> {
  const out: Record<string, StoreSize> = {};
  for (const b of brains) {
    const db = join(home, 'brains', b.id, 'brain.db');
    out[b.kind] = { dbMb: sizeOf(db), walMb: sizeOf(`${db}-wal`) };
  }
  return out;
}
