; Swift: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-swift.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-swift 0.7.1
; (MIT licence; origin github.com/alex-pinkus/tree-sitter-swift), copied as its authors wrote it except: the method patterns capture the method, not its whole class, and properties are left out.
; Imports (@import): written for Gardener (MIT).

(class_declaration
  name: (type_identifier) @name) @definition.class

(protocol_declaration
  name: (type_identifier) @name) @definition.interface

(class_declaration
    (class_body
        [
            (function_declaration
                name: (simple_identifier) @name
            ) @definition.method
        ]
    )
)

(protocol_declaration
    (protocol_body
        [
            (protocol_function_declaration
                name: (simple_identifier) @name
            ) @definition.method
        ]
    )
)

(function_declaration
    name: (simple_identifier) @name) @definition.function

; Gardener: typealiases, calls, imports.
(typealias_declaration name: (type_identifier) @name) @definition.type
(call_expression (simple_identifier) @name) @reference.call
(inheritance_specifier (user_type (type_identifier) @name)) @reference.implementation
(import_declaration (identifier) @import)
