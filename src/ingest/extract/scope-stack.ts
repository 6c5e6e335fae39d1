/**
 * The brace stack the TypeScript, Rust and Java scanners share: one kind per open brace, a frame
 * for each brace that opens a named scope (a class, namespace, impl, trait or type body), and
 * the parenthesis depth.
 *
 * A scope's header (`class A extends B`, `impl<T> X for Y`) is read on its line, before its
 * brace is scanned: the line reader announces it with `expect`, and the next `{` at the header's
 * parenthesis depth opens its body. A `;` at that depth first means the header had no body
 * (`mod x;`, `declare module 'x';`). Each brace remembers the parenthesis depth it opened at and
 * restores it when it closes, so a `(` left open by a file saved mid-edit, or by a misread
 * literal, is forgotten at the end of its block.
 */

/** A brace that opens no named scope: a function body, an object, a control block. */
export const SCOPE_BLOCK = 0;

export interface ScopeFrame {
  /** The brace stack's length once this frame's brace is open. */
  depth: number;
}

export class ScopeStack<F extends ScopeFrame> {
  /** One kind per open brace, innermost last. */
  readonly kinds: number[] = [];
  /** The frames of the open named scopes, innermost last. */
  readonly frames: F[] = [];
  /** Open `(` not yet closed; a scanner may bump it in place on its hot path (typescript.ts does). */
  parenDepth = 0;
  /** The kind of the header waiting for its body; SCOPE_BLOCK when none is. */
  pendingKind = SCOPE_BLOCK;
  /** The parenthesis depth of the waiting header: only a brace at this depth opens its body. */
  pendingParen = 0;
  #pendingFrame: F | undefined = undefined;
  readonly #parensAtBrace: number[] = [];

  /** The innermost brace's kind, or -1 at the top level. */
  top(): number {
    const kinds = this.kinds;
    return kinds.length === 0 ? -1 : kinds[kinds.length - 1]!;
  }

  /** The innermost named scope's frame (which need not be the innermost brace). */
  innermostFrame(): F {
    const frames = this.frames;
    return frames[frames.length - 1]!;
  }

  /** A header of `kind` was read: its body is the next `{` at the current parenthesis depth. */
  expect(kind: number, frame: F): void {
    this.pendingKind = kind;
    this.#pendingFrame = frame;
    this.pendingParen = this.parenDepth;
  }

  /** A `{`: the body of the waiting header if it is at the header's depth, else a plain block. */
  openBrace(): void {
    if (this.pendingKind !== SCOPE_BLOCK && this.parenDepth === this.pendingParen) {
      const kinds = this.kinds;
      kinds.push(this.pendingKind);
      const frame = this.#pendingFrame!;
      frame.depth = kinds.length;
      this.frames.push(frame);
      this.pendingKind = SCOPE_BLOCK;
    } else this.kinds.push(SCOPE_BLOCK);
    this.#parensAtBrace.push(this.parenDepth);
  }

  /** A brace of `kind` that claims no header and has no frame (a template literal's `${`). */
  openUnnamed(kind: number): void {
    this.kinds.push(kind);
    this.#parensAtBrace.push(this.parenDepth);
  }

  /** A `}`: closes the innermost brace and returns its kind (-1 for a stray `}`). */
  closeBrace(): number {
    const kinds = this.kinds;
    if (kinds.length === 0) return -1;
    const frames = this.frames;
    if (frames.length > 0 && frames[frames.length - 1]!.depth === kinds.length) frames.pop();
    this.parenDepth = this.#parensAtBrace.pop()!;
    return kinds.pop()!;
  }

  /** A `;`: a waiting header at this depth had no body and must not claim a later brace. */
  endStatement(): void {
    if (this.parenDepth === this.pendingParen) this.pendingKind = SCOPE_BLOCK;
  }

  /**
   * One of `{ } ( ) ;`, for scanners that give them no meaning of their own. A `)` never takes
   * the depth below zero: a stray one must not make every later `(` look closed.
   */
  punctuation(c: number): void {
    switch (c) {
      case 123:
        this.openBrace();
        break;
      case 125:
        this.closeBrace();
        break;
      case 40:
        this.parenDepth++;
        break;
      case 41:
        if (this.parenDepth > 0) this.parenDepth--;
        break;
      case 59:
        this.endStatement();
        break;
    }
  }
}
