/** Token budgets, counted the cheap way: about four characters of JSON per token. */
export const CHARS_PER_TOKEN = 4;

export function tokensOf(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / CHARS_PER_TOKEN);
}

/** Takes items in order while the running total stays within the budget. */
export function takeWithin<T>(items: Iterable<T>, budgetTokens: number, already = 0): { taken: T[]; used: number; truncated: boolean } {
  const taken: T[] = [];
  let used = already;
  for (const item of items) {
    const cost = tokensOf(item);
    if (used + cost > budgetTokens) return { taken, used, truncated: true };
    taken.push(item);
    used += cost;
  }
  return { taken, used, truncated: false };
}
