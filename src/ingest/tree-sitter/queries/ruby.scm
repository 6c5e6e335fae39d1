; Ruby: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-ruby.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-ruby 0.23.1
; (MIT licence; origin github.com/tree-sitter/tree-sitter-ruby), copied as its authors wrote it except: the pattern taking every bare identifier for a call is left out (without the is-not? local predicate, which this runtime does not evaluate, it takes every local variable).
; Imports (@import): written for Gardener (MIT).


(
  (comment)* @doc
  .
  [
    (method
      name: (_) @name) @definition.method
    (singleton_method
      name: (_) @name) @definition.method
  ]
  (#strip! @doc "^#\\s*")
  (#select-adjacent! @doc @definition.method)
)

(alias
  name: (_) @name) @definition.method

(setter
  (identifier) @ignore)


(
  (comment)* @doc
  .
  [
    (class
      name: [
        (constant) @name
        (scope_resolution
          name: (_) @name)
      ]) @definition.class
    (singleton_class
      value: [
        (constant) @name
        (scope_resolution
          name: (_) @name)
      ]) @definition.class
  ]
  (#strip! @doc "^#\\s*")
  (#select-adjacent! @doc @definition.class)
)


(
  (module
    name: [
      (constant) @name
      (scope_resolution
        name: (_) @name)
    ]) @definition.module
)


(call method: (identifier) @name) @reference.call

; Gardener: superclasses, requires.
(class superclass: (superclass (constant) @name)) @reference.implementation
(call method: (identifier) @_require arguments: (argument_list . (string (string_content) @import)) (#any-of? @_require "require" "require_relative" "load"))
