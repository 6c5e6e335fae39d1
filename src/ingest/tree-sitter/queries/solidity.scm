; Solidity: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: tree-sitter-wasms 0.1.13, out/tree-sitter-solidity.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-solidity 1.2.13
; (MIT licence; origin the tree-sitter-solidity authors (JoranHonig)), copied as its authors wrote it except: events are left out, calls are matched by this older build's node types, imports are ours, and struct/enum/library keep their own kinds.
; Imports (@import): written for Gardener (MIT).

(contract_declaration (_
    (function_definition
        name: (identifier) @name) @definition.method))

(source_file
    (function_definition
        name: (identifier) @name) @definition.function)

(contract_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(library_declaration
  name: (identifier) @name) @definition.library

(struct_declaration name: (identifier) @name) @definition.struct

(enum_declaration name: (identifier) @name) @definition.enum

(call_expression function: (identifier) @name) @reference.call

(call_expression function: (member_expression property: (_) @name)) @reference.call

(inheritance_specifier
    ancestor: (user_defined_type (_) @name . )) @reference.class

; Gardener: modifiers and imports.
(modifier_definition name: (identifier) @name) @definition.function
(import_directive source: (string) @import)
