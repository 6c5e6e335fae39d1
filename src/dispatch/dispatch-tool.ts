/**
 * `dispatchTool(name, args, context)`: the one seam every transport calls.
 *
 * It finds the tool, validates its input (a bad input is an `isError` result naming the field
 * and what was expected), schedules the traffic tick when the tool's class says so (fail-open,
 * never awaited), and runs the handler. A handler's failure becomes an `isError` result with a
 * message that names the problem; only protocol faults are left to the transport.
 */
import { errorBody, GardenerError, InvalidArgumentError, ToolFailedError, UnknownToolError } from '../errors.js';
import type { ZodIssue } from 'zod';
import type { ToolContext, ToolDef, ToolResult } from './tool.js';
import { requestGate } from '../pool/request-gate.js';
import { ticksOnTraffic } from './traffic.js';
import { callsInFlight } from './calls-in-flight.js';

export async function dispatchTool(
  tools: ReadonlyMap<string, ToolDef>,
  name: string,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolResult> {
  const tool = tools.get(name);
  if (!tool) return failure(new UnknownToolError(name));
  if (tool.late && !ctx.session.isListed(name)) {
    return failure(new UnknownToolError(name, { late: true }));
  }
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map(describeIssue).join('; ');
    return failure(new InvalidArgumentError(`invalid input for ${name}: ${issues}`));
  }
  if (ticksOnTraffic(tool.traffic)) ctx.session.trafficTick();
  // Counted, so work that stops the loop waits for the moment the last answer has left (./calls-in-flight.ts).
  callsInFlight.enter();
  try {
    // A recall call has the cores before the pool's drain work (src/pool/request-gate.ts).
    const run = () => tool.handler(parsed.data, ctx);
    return { value: await (tool.traffic === 'recall' ? requestGate.around(run) : run()) };
  } catch (err) {
    return failure(err instanceof GardenerError ? err : new ToolFailedError(name, err));
  } finally {
    callsInFlight.leave();
  }
}

/** One zod issue as a model reads it: the field, then what was wrong ("too long: at most 4096 characters"). */
function describeIssue(i: ZodIssue): string {
  const field = i.path.length ? i.path.join('.') : 'input';
  if (i.code === 'too_big' && (i.type === 'string' || i.type === 'array')) {
    return `${field}: too long (at most ${String(i.maximum)} ${i.type === 'string' ? 'characters' : 'items'})`;
  }
  return `${field}: ${i.message}`;
}

function failure(err: GardenerError): ToolResult {
  return { value: errorBody(err), isError: true };
}
