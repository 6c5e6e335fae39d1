; C#: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-c_sharp.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-c-sharp 0.23.5
; (MIT licence; origin github.com/tree-sitter/tree-sitter-c-sharp), copied as its authors wrote it except: patterns for node types this older grammar build lacks are left out, and the duplicate @module pattern.
; Imports (@import): written for Gardener (MIT).

(class_declaration name: (identifier) @name) @definition.class

(class_declaration (base_list (_) @name)) @reference.class

(interface_declaration name: (identifier) @name) @definition.interface

(interface_declaration (base_list (_) @name)) @reference.interface

(method_declaration name: (identifier) @name) @definition.method

(object_creation_expression type: (identifier) @name) @reference.class

(variable_declaration type: (identifier) @name) @reference.class

(invocation_expression function: (member_access_expression name: (identifier) @name)) @reference.send

(namespace_declaration name: (identifier) @name) @definition.module

; Gardener: the other type forms, dotted namespaces, calls, usings.
(namespace_declaration name: (qualified_name) @name) @definition.module
(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(constructor_declaration name: (identifier) @name) @definition.method
(delegate_declaration name: (identifier) @name) @definition.type
(invocation_expression function: (identifier) @name) @reference.call
(using_directive (qualified_name) @import)
(using_directive (identifier) @import)
