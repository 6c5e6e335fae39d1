; Gleam: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-gleam.wasm.
; The grammar ships no tags.scm: written for Gardener (MIT), in the tags convention
; (@definition.<kind> / @reference.<kind> with @name), against the node types of the grammar above.

(function name: (identifier) @name) @definition.function
(external_function name: (identifier) @name) @definition.function
(type_definition (type_name name: (type_identifier) @name)) @definition.type
(type_alias (type_name name: (type_identifier) @name)) @definition.type
(constant name: (identifier) @name) @definition.constant
(function_call function: (identifier) @name) @reference.call
(function_call function: (field_access field: (label) @name)) @reference.call
(import module: (module) @import)
