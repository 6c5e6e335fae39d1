; Objective-C: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: tree-sitter-wasms 0.1.13, out/tree-sitter-objc.wasm.
; The grammar ships no tags.scm: written for Gardener (MIT), in the tags convention
; (@definition.<kind> / @reference.<kind> with @name), against the node types of the grammar above.

(class_interface . (identifier) @name) @definition.class
(class_implementation . (identifier) @name) @definition.class
(protocol_declaration . (identifier) @name) @definition.interface
(method_declaration (identifier) @name) @definition.method
(method_definition (identifier) @name) @definition.method
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_function_def name: (identifier) @name) @definition.macro
(class_interface superclass: (identifier) @name) @reference.implementation
(call_expression function: (identifier) @name) @reference.call
(preproc_include path: (string_literal (string_content) @import))
(preproc_include path: (system_lib_string) @import)
