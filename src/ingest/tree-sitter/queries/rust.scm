; Rust: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Not routed: this language's line scanner (src/ingest/extract/) is faster; the grammar serves the
; shared extractor suite and the side-by-side bench.
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-rust.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-rust 0.24.0
; (MIT licence; origin github.com/tree-sitter/tree-sitter-rust), copied as its authors wrote it.
; Imports (@import): written for Gardener (MIT).


(struct_item
    name: (type_identifier) @name) @definition.class

(enum_item
    name: (type_identifier) @name) @definition.class

(union_item
    name: (type_identifier) @name) @definition.class


(type_item
    name: (type_identifier) @name) @definition.class


(declaration_list
    (function_item
        name: (identifier) @name) @definition.method)


(function_item
    name: (identifier) @name) @definition.function

(trait_item
    name: (type_identifier) @name) @definition.interface

(mod_item
    name: (identifier) @name) @definition.module


(macro_definition
    name: (identifier) @name) @definition.macro


(call_expression
    function: (identifier) @name) @reference.call

(call_expression
    function: (field_expression
        field: (field_identifier) @name)) @reference.call

(macro_invocation
    macro: (identifier) @name) @reference.call


(impl_item
    trait: (type_identifier) @name) @reference.implementation

(impl_item
    type: (type_identifier) @name
    !trait) @reference.implementation

(use_declaration argument: (_) @import)

; Gardener: trait method signatures, which the authors' file leaves out.
(function_signature_item name: (identifier) @name) @definition.method
