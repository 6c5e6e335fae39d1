; Scala: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-scala.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-scala 0.24.0
; (MIT licence; origin github.com/tree-sitter/tree-sitter-scala), copied as its authors wrote it except: values, variables and parameters (not definitions a reader looks up by name here) are left out.
; Imports (@import): written for Gardener (MIT).

(package_clause
  name: (package_identifier) @name) @definition.module

(trait_definition
  name: (identifier) @name) @definition.interface

(enum_definition
  name: (identifier) @name) @definition.enum

(simple_enum_case
  name: (identifier) @name) @definition.class

(full_enum_case
  name: (identifier) @name) @definition.class

(class_definition
  name: (identifier) @name) @definition.class

(object_definition
  name: (identifier) @name) @definition.object

(function_definition
  name: (identifier) @name) @definition.function

(type_definition
  name: (type_identifier) @name) @definition.type

(call_expression
  (identifier) @name) @reference.call

(instance_expression
  (type_identifier) @name) @reference.interface

(instance_expression
  (generic_type
    (type_identifier) @name)) @reference.interface

(extends_clause
  (type_identifier) @name) @reference.class

(extends_clause
  (generic_type
    (type_identifier) @name)) @reference.class

; Gardener: imports.
(import_declaration) @import
