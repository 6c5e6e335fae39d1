; Go: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Not routed: this language's line scanner (src/ingest/extract/) is faster; the grammar serves the
; shared extractor suite and the side-by-side bench.
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-go.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-go 0.25.0
; (MIT licence; origin github.com/tree-sitter/tree-sitter-go), copied as its authors wrote it.
; Imports (@import): written for Gardener (MIT).

(
  (comment)* @doc
  .
  (function_declaration
    name: (identifier) @name) @definition.function
  (#strip! @doc "^//\\s*")
  (#set-adjacent! @doc @definition.function)
)

(
  (comment)* @doc
  .
  (method_declaration
    name: (field_identifier) @name) @definition.method
  (#strip! @doc "^//\\s*")
  (#set-adjacent! @doc @definition.method)
)

(call_expression
  function: [
    (identifier) @name
    (parenthesized_expression (identifier) @name)
    (selector_expression field: (field_identifier) @name)
    (parenthesized_expression (selector_expression field: (field_identifier) @name))
  ]) @reference.call

(type_spec
  name: (type_identifier) @name) @definition.type

(type_identifier) @name @reference.type

(package_clause "package" (package_identifier) @name)

(type_declaration (type_spec name: (type_identifier) @name type: (interface_type)))

(type_declaration (type_spec name: (type_identifier) @name type: (struct_type)))

(import_declaration (import_spec) @name)

(var_declaration (var_spec name: (identifier) @name))

(const_declaration (const_spec name: (identifier) @name))

(import_spec path: (interpreted_string_literal) @import)
