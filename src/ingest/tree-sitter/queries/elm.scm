; Elm: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-elm.wasm.
; The grammar ships no tags.scm: written for Gardener (MIT), in the tags convention
; (@definition.<kind> / @reference.<kind> with @name), against the node types of the grammar above.

(module_declaration name: (upper_case_qid) @name) @definition.module
(type_declaration name: (upper_case_identifier) @name) @definition.type
(type_alias_declaration name: (upper_case_identifier) @name) @definition.type
(value_declaration (function_declaration_left . (lower_case_identifier) @name)) @definition.function
(port_annotation name: (lower_case_identifier) @name) @definition.function
(function_call_expr target: (value_expr (value_qid (lower_case_identifier) @name))) @reference.call
(import_clause moduleName: (upper_case_qid) @import)
