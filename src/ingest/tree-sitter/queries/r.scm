; R: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-r.wasm.
; The grammar ships no tags.scm: written for Gardener (MIT), in the tags convention
; (@definition.<kind> / @reference.<kind> with @name), against the node types of the grammar above.

(binary_operator lhs: (identifier) @name operator: ["<-" "=" "<<-"] rhs: (function_definition)) @definition.function
(binary_operator lhs: (string) @name operator: ["<-" "="] rhs: (function_definition)) @definition.function
(call function: (identifier) @name) @reference.call
(call function: (identifier) @_lib arguments: (arguments . (argument value: [(identifier) (string)] @import)) (#any-of? @_lib "library" "require" "source" "requireNamespace"))
