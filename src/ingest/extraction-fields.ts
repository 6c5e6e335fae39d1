/**
 * The fields an ingested file's definitions, imports and references travel in: serialised on
 * the pool thread (which has CPU to spare) into the form the store keeps, so one string crosses
 * the threads instead of dozens of small objects and the writer (the drain's critical path)
 * does not do the work.
 */
import type { ImportRef, Reference, SymbolDef } from './extract/types.js';
import { encodeReferences } from './reference-codec.js';

/** Serialises an extraction into the fields an IngestedResult carries. */
export function extractionFields(symbols: readonly SymbolDef[], imports: readonly ImportRef[], references: readonly Reference[] = []) {
  return {
    symbolsJson: JSON.stringify(symbols),
    symbolCount: symbols.length,
    symbolNames: symbols.map((s) => s.name).join(' '),
    importsJson: JSON.stringify(imports),
    refsText: encodeReferences(symbols, references),
  };
}
