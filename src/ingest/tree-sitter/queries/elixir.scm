; Elixir: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: @cursorless/tree-sitter-wasms 0.7.0, out/tree-sitter-elixir.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-elixir 0.3.5
; (Apache-2.0 licence; origin github.com/elixir-lang/tree-sitter-elixir), copied as its authors wrote it except: the three patterns that only mark keywords to ignore are left out, and aliases are no references here.
; Imports (@import): written for Gardener (MIT).

(call
  target: (identifier) @ignore
  (arguments (alias) @name)
  (#any-of? @ignore "defmodule" "defprotocol")) @definition.module

(call
  target: (identifier) @ignore
  (arguments
    [
      (identifier) @name
      (call target: (identifier) @name)
      (binary_operator
        left: (call target: (identifier) @name)
        operator: "when")
    ])
  (#any-of? @ignore "def" "defp" "defdelegate" "defguard" "defguardp" "defmacro" "defmacrop" "defn" "defnp")) @definition.function

(binary_operator
  operator: "|>"
  right: (identifier) @name) @reference.call

; Gardener: calls other than definitions, and alias/import/require/use.
(call
  target: [(identifier) @name (dot right: (identifier) @name)]
  (#not-any-of? @name "def" "defp" "defdelegate" "defguard" "defguardp" "defmacro" "defmacrop" "defn" "defnp" "defmodule" "defprotocol" "defimpl" "defstruct" "defexception" "defoverridable" "alias" "import" "require" "use" "case" "cond" "for" "if" "unless" "with" "try" "receive" "quote" "raise")) @reference.call
(call target: (identifier) @_use (arguments . (alias) @import) (#any-of? @_use "alias" "import" "require" "use"))
