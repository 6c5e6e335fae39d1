; Perl: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-perl.wasm.
; The grammar ships no tags.scm: written for Gardener (MIT), in the tags convention
; (@definition.<kind> / @reference.<kind> with @name), against the node types of the grammar above.

(function_definition name: (identifier) @name) @definition.function
(package_statement (package_name) @name) @definition.module
(use_no_statement package_name: (package_name) @import)
