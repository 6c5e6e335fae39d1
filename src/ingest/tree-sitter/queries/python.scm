; Python: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Not routed: this language's line scanner (src/ingest/extract/) is faster; the grammar serves the
; shared extractor suite and the side-by-side bench.
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-python.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-python 0.25.0
; (MIT licence; origin github.com/tree-sitter/tree-sitter-python), copied as its authors wrote it.
; Imports (@import): written for Gardener (MIT).

(module (expression_statement (assignment left: (identifier) @name) @definition.constant))

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

(call
  function: [
      (identifier) @name
      (attribute
        attribute: (identifier) @name)
  ]) @reference.call

(import_statement name: [(dotted_name) (aliased_import name: (dotted_name))] @import)
(import_from_statement module_name: (_) @import)
