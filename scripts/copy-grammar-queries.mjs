// Maintainer helper run by `npm run build`: tsc copies no data files, and the tree-sitter
// loader reads its query files beside its compiled module (dist/src/ingest/tree-sitter/queries).
import { cpSync } from 'node:fs';
cpSync(new URL('../src/ingest/tree-sitter/queries/', import.meta.url), new URL('../dist/src/ingest/tree-sitter/queries/', import.meta.url), { recursive: true });
