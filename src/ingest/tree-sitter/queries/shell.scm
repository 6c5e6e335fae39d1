; Shell (bash): definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-bash.wasm.
; The grammar ships no tags.scm: written for Gardener (MIT), in the tags convention
; (@definition.<kind> / @reference.<kind> with @name), against the node types of the grammar above.

(function_definition name: (word) @name) @definition.function
(command name: (command_name (word) @name)) @reference.call
(command name: (command_name (word) @_source) . argument: [(word) (string) (raw_string)] @import (#any-of? @_source "source" "."))
