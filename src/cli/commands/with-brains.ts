/** Runs a command with a Brains for this process, always closed after (workers ended). */
import { Brains } from '../../brain/index.js';

export async function withBrains<T>(fn: (brains: Brains) => Promise<T>): Promise<T> {
  const brains = new Brains();
  try {
    return await fn(brains);
  } finally {
    await brains.close();
  }
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
