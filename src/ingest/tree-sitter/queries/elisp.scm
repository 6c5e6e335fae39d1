; Emacs Lisp: definitions and references for Gardener's tree-sitter path (src/ingest/tree-sitter/).
; Grammar: tree-sitter-wasms 0.1.13, out/tree-sitter-elisp.wasm.
; Definitions and references: queries/tags.scm of the registry package tree-sitter-elisp 1.7.2
; (MIT licence; origin github.com/Wilfred/tree-sitter-elisp), copied as its authors wrote it.
; Imports (@import): written for Gardener (MIT).

(function_definition name: (symbol) @name) @definition.function

(macro_definition name: (symbol) @name) @definition.function

; Gardener: (require 'feature).
(list . (symbol) @_require . (quote (symbol) @import) (#eq? @_require "require"))
