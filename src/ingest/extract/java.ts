import type { Extraction } from './types.js';

export function extractJava(text: string): Extraction {
  void text;
  return { symbols: [], imports: [] };
}
