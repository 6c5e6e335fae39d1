; Java: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Not routed: this language's line scanner (src/ingest/extract/) is faster; the grammar serves the
; shared extractor suite and the side-by-side bench.
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-java.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-java 0.23.5
; (MIT licence; origin github.com/tree-sitter/tree-sitter-java), copied as its authors wrote it.
; Imports (@import): written for Gardener (MIT).

(class_declaration
  name: (identifier) @name) @definition.class

(method_declaration
  name: (identifier) @name) @definition.method

(method_invocation
  name: (identifier) @name
  arguments: (argument_list) @reference.call)

(interface_declaration
  name: (identifier) @name) @definition.interface

(type_list
  (type_identifier) @name) @reference.implementation

(object_creation_expression
  type: (type_identifier) @name) @reference.class

(superclass (type_identifier) @name) @reference.class

(import_declaration [(scoped_identifier) (identifier)] @import)
