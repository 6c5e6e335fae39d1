; PHP: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-php.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-php 0.24.2
; (MIT licence; origin github.com/tree-sitter/tree-sitter-php), copied as its authors wrote it except: property fields are left out.
; Imports (@import): written for Gardener (MIT).

(namespace_definition
  name: (namespace_name) @name) @definition.module

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.interface

(class_declaration
  name: (name) @name) @definition.class

(class_interface_clause [(name) (qualified_name)] @name) @reference.implementation


(function_definition
  name: (name) @name) @definition.function

(method_declaration
  name: (name) @name) @definition.function

(object_creation_expression
  [
    (qualified_name (name) @name)
    (variable_name (name) @name)
  ]) @reference.class

(function_call_expression
  function: [
    (qualified_name (name) @name)
    (variable_name (name)) @name
  ]) @reference.call

(scoped_call_expression
  name: (name) @name) @reference.call

(member_call_expression
  name: (name) @name) @reference.call

; Gardener: enums, uses, requires.
(enum_declaration name: (name) @name) @definition.enum
(namespace_use_declaration (namespace_use_clause (qualified_name) @import))
(namespace_use_declaration (namespace_use_clause (name) @import))
[
  (require_expression (string (string_content) @import))
  (require_once_expression (string (string_content) @import))
  (include_expression (string (string_content) @import))
  (include_once_expression (string (string_content) @import))
  (require_expression (binary_expression right: (string (string_content) @import)))
  (require_once_expression (binary_expression right: (string (string_content) @import)))
  (include_expression (binary_expression right: (string (string_content) @import)))
  (include_once_expression (binary_expression right: (string (string_content) @import)))
]
