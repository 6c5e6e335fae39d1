/**
 * Resolution: an import as written to the file of the repository it names, as the language's
 * own tools resolve it (tsconfig paths, package exports and workspace names, go.mod, Cargo
 * workspaces, Python source folders). Every consumer (the skeleton, refs, impact, ranking)
 * asks here; none resolves on its own.
 */
export { ImportResolver, lookupStems, stemOf } from './import-resolver.js';
export { FILE_IMPORT_RULES } from './file-import-rules.js';
export { loadLayout, buildLayout, type Layout, type PackageEntry, type TsConfig } from './workspace-layout.js';
