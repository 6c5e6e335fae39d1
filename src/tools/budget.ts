/**
 * Token budgets, counted on the text the agent receives: the compact JSON of the whole answer,
 * at about four characters per token (the documented estimate). A budget bounds that text,
 * not an estimate of its parts, so a pack is filled item by item against the exact length.
 */
export const CHARS_PER_TOKEN = 4;

/** Characters of compact JSON, as the transports send it. */
export function charsOf(value: unknown): number {
  return JSON.stringify(value).length;
}

export function tokensOf(value: unknown): number {
  return Math.ceil(charsOf(value) / CHARS_PER_TOKEN);
}

/** A list field of an answer and the items that may go into it, in rank order. */
export interface PackList {
  field: string;
  items: readonly unknown[];
  /** At most this many characters for this list's items (a share of the budget). @default no cap */
  maxChars?: number;
}

export interface Packed {
  /** The answer with its list fields filled. */
  value: Record<string, unknown>;
  truncated: boolean;
  /** Tokens the whole answer costs, as sent. */
  tokensUsed: number;
}

/**
 * Fills `lists` into `head` (whose list fields are left out) while the compact JSON of the
 * whole answer, `truncated` and `tokens_used` included, stays within `budgetTokens`. Items are
 * taken in order; an item that does not fit ends its list (a lower-ranked one never jumps it).
 * When the head alone is over the budget, the lists stay empty and the head is sent as is.
 */
export function packWithin(head: Record<string, unknown>, lists: readonly PackList[], budgetTokens: number): Packed {
  const limit = budgetTokens * CHARS_PER_TOKEN;
  const value: Record<string, unknown> = { ...head };
  for (const list of lists) value[list.field] = [];
  // Reserve the widest forms of the two fields we fill in last.
  value.truncated = false;
  value.tokens_used = budgetTokens * 10;
  let used = charsOf(value);
  let truncated = false;
  for (const list of lists) {
    const taken: unknown[] = [];
    let listChars = 0;
    for (const item of list.items) {
      const cost = charsOf(item) + (taken.length > 0 ? 1 : 0);
      if (used + cost > limit || (list.maxChars !== undefined && listChars + cost > list.maxChars)) {
        truncated = true;
        break;
      }
      taken.push(item);
      used += cost;
      listChars += cost;
    }
    value[list.field] = taken;
  }
  value.truncated = truncated;
  return { value, truncated, tokensUsed: stampTokens(value) };
}

/** Sets `tokens_used` to what the answer costs as sent; call again after shrinking it. */
export function stampTokens(value: Record<string, unknown>): number {
  // Twice: the count's own digits are part of what it counts.
  value.tokens_used = tokensOf(value);
  value.tokens_used = tokensOf(value);
  return value.tokens_used as number;
}
