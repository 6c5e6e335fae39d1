; Dart: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-dart.wasm.
; The grammar ships no tags.scm: written for Gardener (MIT), in the tags convention
; (@definition.<kind> / @reference.<kind> with @name), against the node types of the grammar above.

(class_definition name: (identifier) @name) @definition.class
(mixin_declaration (identifier) @name) @definition.class
(extension_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias (type_identifier) @name) @definition.type
(program (function_signature name: (identifier) @name) @definition.function)
(method_signature (function_signature name: (identifier) @name)) @definition.method
(declaration (function_signature name: (identifier) @name)) @definition.method
(method_signature (getter_signature name: (identifier) @name)) @definition.method
(method_signature (setter_signature name: (identifier) @name)) @definition.method
(method_signature (constructor_signature name: (identifier) @name)) @definition.method
(superclass (type_identifier) @name) @reference.implementation
(import_or_export (library_import (import_specification (configurable_uri (uri (string_literal) @import)))))
(import_or_export (library_export (configurable_uri (uri (string_literal) @import))))
