; C++: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-cpp.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-cpp 0.23.4
; (MIT licence; origin github.com/tree-sitter/tree-sitter-cpp), copied as its authors wrote it except: the local.scope capture is dropped (one capture role per pattern here).
; Imports (@import): written for Gardener (MIT).

(struct_specifier name: (type_identifier) @name body:(_)) @definition.class

(declaration type: (union_specifier name: (type_identifier) @name)) @definition.class

(function_declarator declarator: (identifier) @name) @definition.function

(function_declarator declarator: (field_identifier) @name) @definition.function

(function_declarator declarator: (qualified_identifier scope: (namespace_identifier) name: (identifier) @name)) @definition.method

(type_definition declarator: (type_identifier) @name) @definition.type

(enum_specifier name: (type_identifier) @name) @definition.type

(class_specifier name: (type_identifier) @name) @definition.class

; Gardener: namespaces, calls, includes.
(namespace_definition name: (namespace_identifier) @name) @definition.module
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.send
(base_class_clause (type_identifier) @name) @reference.implementation
(preproc_include path: (string_literal (string_content) @import))
(preproc_include path: (system_lib_string) @import)
