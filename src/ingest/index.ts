export { hashAndExtract } from './hash-extract.js';
export { languageOf } from './language.js';
export { extractDefinitions } from './extract/index.js';
export { indexableText, isSecretFile, redactTokens, findSecret, type SecretFound } from './secrets/index.js';
export type { SymbolDef, ImportRef, Extraction } from './extract/types.js';
export type { BacklogItem, DeletedResult, FailedResult, FileResult, HashExtractTask, IngestedResult, UnchangedResult } from './types.js';
export { extractionFields } from './extraction-fields.js';
export { encodeReferences, namesIn, usesIn } from './reference-codec.js';
