; ReScript: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: tree-sitter-wasms 0.1.13, out/tree-sitter-rescript.wasm.
; The grammar ships no tags.scm: written for Gardener (MIT), in the tags convention
; (@definition.<kind> / @reference.<kind> with @name), against the node types of the grammar above.

(let_declaration (let_binding pattern: (value_identifier) @name body: (function))) @definition.function
(type_declaration (type_binding name: (type_identifier) @name)) @definition.type
(module_declaration (module_binding name: (module_identifier) @name)) @definition.module
(call_expression function: (value_identifier) @name) @reference.call
(open_statement (module_identifier) @import)
