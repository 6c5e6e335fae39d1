/** `gardener mcp [--root DIR]`: the MCP server over stdio. */
import { checkFolder } from '../../brain/folders.js';
import { runStdioServer } from '../../mcp/stdio-server.js';

export async function mcp(opts: { root?: string }): Promise<void> {
  const folder = checkFolder(opts.root ?? process.cwd());
  const server = await runStdioServer({ folder });
  await server.closed;
  // Everything is joined by now; exit rather than linger on an unref'd handle.
  process.exit(0);
}
