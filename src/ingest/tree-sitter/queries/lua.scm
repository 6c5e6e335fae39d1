; Lua: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-lua.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-lua 0.4.1
; (MIT licence; origin github.com/tree-sitter-grammars/tree-sitter-lua), copied as its authors wrote it.
; Imports (@import): written for Gardener (MIT).

(function_declaration
  name: [
    (identifier) @name
    (dot_index_expression
      field: (identifier) @name)
  ]) @definition.function

(function_declaration
  name: (method_index_expression
    method: (identifier) @name)) @definition.method

(assignment_statement
  (variable_list
    .
    name: [
      (identifier) @name
      (dot_index_expression
        field: (identifier) @name)
    ])
  (expression_list
    .
    value: (function_definition))) @definition.function

(table_constructor
  (field
    name: (identifier) @name
    value: (function_definition))) @definition.function

(function_call
  name: [
    (identifier) @name
    (dot_index_expression
      field: (identifier) @name)
    (method_index_expression
      method: (identifier) @name)
  ]) @reference.call

; Gardener: require("mod") and require "mod".
(function_call name: (identifier) @_require arguments: (arguments . (string content: (string_content) @import)) (#eq? @_require "require"))
