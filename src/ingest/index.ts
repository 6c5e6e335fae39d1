export { hashAndExtract } from './hash-extract.js';
export { languageOf } from './language.js';
export { extractDefinitions } from './extract/index.js';
export { indexableText, isSecretFile, redactTokens } from './secrets/index.js';
export type { SymbolDef, ImportRef, Extraction } from './extract/types.js';
