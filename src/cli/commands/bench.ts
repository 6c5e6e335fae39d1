export async function bench(_opts: Record<string, string | boolean>): Promise<void> {
  throw new Error('bench: not built yet');
}
