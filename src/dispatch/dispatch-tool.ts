/**
 * `dispatchTool(name, args, context)`: the one seam every transport calls.
 *
 * It finds the tool, validates its input (a bad input is an `isError` result naming the field
 * and what was expected), schedules the traffic tick when the tool's class says so (fail-open,
 * never awaited), and runs the handler. A handler's failure becomes an `isError` result with a
 * message that names the problem; only protocol faults are left to the transport.
 */
import { GardenerError } from '../errors.js';
import type { ToolContext, ToolDef, ToolResult } from './tool.js';
import { ticksOnTraffic } from './traffic.js';

export async function dispatchTool(
  tools: ReadonlyMap<string, ToolDef>,
  name: string,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolResult> {
  const tool = tools.get(name);
  if (!tool) return failure(`unknown tool "${name}": call tools/list for the tools this session offers`, 'GDN_UNKNOWN_TOOL');
  if (tool.late && !ctx.session.isListed(name)) {
    return failure(`${name} is not available here: it is offered only for a folder with a brain (call ingest first)`, 'GDN_UNKNOWN_TOOL');
  }
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'input'}: ${i.message}`).join('; ');
    return failure(`invalid input for ${name}: ${issues}`, 'GDN_INVALID_ARGUMENT');
  }
  if (ticksOnTraffic(tool.traffic)) ctx.session.trafficTick();
  try {
    return { value: await tool.handler(parsed.data, ctx) };
  } catch (err) {
    if (err instanceof GardenerError) return failure(err.message, err.code);
    return failure(`${name} failed: ${err instanceof Error ? err.message : String(err)}`, 'GDN_TOOL_FAILED');
  }
}

function failure(message: string, code: string): ToolResult {
  return { value: { error: { code, message } }, isError: true };
}
