/**
 * The bounds every string and array a tool takes carries in its input schema, so a host sees
 * them in tools/list and the dispatcher (zod) refuses what is over them with `isError` naming
 * the field. Terse on purpose: each bound is listed to every session (tools/list stays under
 * MAX_TOOL_LIST_CHARS).
 */
import { z } from 'zod';

/** A path argument: the confinement check refuses more than 4096 bytes anyway (src/paths/). */
export const MAX_PATH_CHARS = 4096;
/** A seek query: longer than any name or phrase a search needs. */
export const MAX_QUERY_CHARS = 1000;
/** A delegate task: an issue or a pasted log may run long (a 100 KB task is read whole: recall-bad-input). */
export const MAX_TASK_CHARS = 200_000;
/** A skeleton glob. */
export const MAX_GLOB_CHARS = 512;
/** A room's purpose (the writer refuses more than 240 with its own message). */
export const MAX_PURPOSE_CHARS = 1000;
/** Rooms named in one list (merge, may_use). */
export const MAX_ROOMS = 200;

/** A non-empty path argument, bounded. */
export const pathArg = () => z.string().min(1).max(MAX_PATH_CHARS);
