#!/usr/bin/env node
/**
 * The `gardener` executable. The plain `gardener mcp [--root DIR]` an agent host launches is
 * recognised here and served without loading commander (mcp-fast-path.ts: the first frame pays
 * only for what it uses); every other command line goes to the commander program (program.ts).
 * Nothing else is imported statically, so each path loads only its own modules.
 */
import { keepHeapsSmall } from '../heap-growth.js';
import { mcpFastPathOptions } from './mcp-fast-path.js';

keepHeapsSmall();

const mcpOptions = mcpFastPathOptions(process.argv.slice(2));
if (mcpOptions) {
  try {
    await (await import('./commands/mcp.js')).mcp(mcpOptions);
  } catch (err) {
    process.exitCode = (await import('./output.js')).reportError(err);
  }
} else {
  await (await import('./program.js')).runProgram(process.argv);
}
