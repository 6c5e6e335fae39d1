; C: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-c.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-c 0.24.1
; (MIT licence; origin github.com/tree-sitter/tree-sitter-c), copied as its authors wrote it.
; Imports (@import): written for Gardener (MIT).

(struct_specifier name: (type_identifier) @name body:(_)) @definition.class

(declaration type: (union_specifier name: (type_identifier) @name)) @definition.class

(function_declarator declarator: (identifier) @name) @definition.function

(type_definition declarator: (type_identifier) @name) @definition.type

(enum_specifier name: (type_identifier) @name) @definition.type

; Gardener: macros and calls, which the authors' file leaves out.
(preproc_function_def name: (identifier) @name) @definition.macro
(call_expression function: (identifier) @name) @reference.call
(preproc_include path: (string_literal (string_content) @import))
(preproc_include path: (system_lib_string) @import)
