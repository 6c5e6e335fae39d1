/**
 * The command line an agent host launches, `gardener mcp [--root DIR]`, recognised without
 * commander: loading and building the whole CLI costs about 9 ms of CPU before the first frame
 * (issue 20: `initialize` within 1.15× a minimal SDK server), for a command with one option.
 *
 * Only the exact plain forms are taken here: `mcp`, `mcp --root DIR` and `mcp --root=DIR`, with
 * a DIR that is not empty and does not start with `-`. Every other command line (help, an
 * unknown or repeated option, a stray argument) goes to commander, which answers it as it
 * always did, so the two paths cannot disagree about what a line means.
 */

export interface McpFastPathOptions {
  root?: string;
}

/** The options of a plain `gardener mcp` line (`args` = process.argv.slice(2)), or null for commander. */
export function mcpFastPathOptions(args: readonly string[]): McpFastPathOptions | null {
  if (args[0] !== 'mcp') return null;
  const plainDir = (dir: string | undefined): dir is string => dir !== undefined && dir !== '' && !dir.startsWith('-');
  if (args.length === 1) return {};
  if (args.length === 2 && args[1]!.startsWith('--root=')) {
    const dir = args[1]!.slice('--root='.length);
    return plainDir(dir) ? { root: dir } : null;
  }
  if (args.length === 3 && args[1] === '--root' && plainDir(args[2])) return { root: args[2] };
  return null;
}
