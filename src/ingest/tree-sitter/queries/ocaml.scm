; OCaml: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: tree-sitter-wasms 0.1.13, out/tree-sitter-ocaml.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-ocaml 0.24.2
; (MIT licence; origin github.com/tree-sitter/tree-sitter-ocaml), copied as its authors wrote it except: variant constructors, fields and operator patterns are left out.
; Imports (@import): written for Gardener (MIT).


(
  (comment)? @doc .
  (module_definition
    (module_binding (module_name) @name) @definition.module
  )
  (#strip! @doc "^\\(\\*+\\s*|\\s*\\*+\\)$")
)

(module_path (module_name) @name) @reference.module
(extended_module_path (module_name) @name) @reference.module

(
  (comment)? @doc .
  (module_type_definition (module_type_name) @name) @definition.interface
  (#strip! @doc "^\\(\\*+\\s*|\\s*\\*+\\)$")
)

(module_type_path (module_type_name) @name) @reference.implementation



(
  (comment)? @doc .
  [
    (class_definition
      (class_binding (class_name) @name) @definition.class
    )
    (class_type_definition
      (class_type_binding (class_type_name) @name) @definition.class
    )
  ]
  (#strip! @doc "^\\(\\*+\\s*|\\s*\\*+\\)$")
)

[
  (class_path (class_name) @name)
  (class_type_path (class_type_name) @name)
] @reference.class

(
  (comment)? @doc .
  (method_definition (method_name) @name) @definition.method
  (#strip! @doc "^\\(\\*+\\s*|\\s*\\*+\\)$")
)

(method_invocation (method_name) @name) @reference.call



(
  (comment)? @doc .
  (type_definition
    (type_binding
      name: [
        (type_constructor) @name
        (type_constructor_path (type_constructor) @name)
      ]
    ) @definition.type
  )
  (#strip! @doc "^\\(\\*+\\s*|\\s*\\*+\\)$")
)

(type_constructor_path (type_constructor) @name) @reference.type

(
  (comment)? @doc .
  (value_definition
    [
      (let_binding pattern: (value_name) @name (parameter))
      (let_binding
        pattern: (value_name) @name
        body: [(fun_expression) (function_expression)]
      )
    ] @definition.function
  )
  (#strip! @doc "^\\(\\*+\\s*|\\s*\\*+\\)$")
)

(
  (comment)? @doc .
  (external (value_name) @name) @definition.function
  (#strip! @doc "^\\(\\*+\\s*|\\s*\\*+\\)$")
)

(application_expression
  function: (value_path (value_name) @name)
) @reference.call

(infix_expression
  left: (value_path (value_name) @name)
  operator: (concat_operator) @reference.call
  (#eq? @reference.call "@@")
)

(infix_expression
  operator: (rel_operator) @reference.call
  right: (value_path (value_name) @name)
  (#eq? @reference.call "|>")
)

; Gardener: open and include.
(open_module (module_path) @import)
(include_module (module_path) @import)
