; TypeScript: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Not routed: this language's line scanner (src/ingest/extract/) is faster; the grammar serves the
; shared extractor suite and the side-by-side bench.
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-typescript.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-typescript 0.23.2, which extends
; tree-sitter-javascript 0.25.0's: the line below takes javascript.scm whole (its imports too), then TypeScript's own
; patterns follow (MIT licence; origin github.com/tree-sitter/tree-sitter-typescript), copied as their authors wrote them.
; inherits: javascript

(function_signature
  name: (identifier) @name) @definition.function

(method_signature
  name: (property_identifier) @name) @definition.method

(abstract_method_signature
  name: (property_identifier) @name) @definition.method

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

(module
  name: (identifier) @name) @definition.module

(interface_declaration
  name: (type_identifier) @name) @definition.interface

(type_annotation
  (type_identifier) @name) @reference.type

(new_expression
  constructor: (identifier) @name) @reference.class
