/**
 * Prompts and resources are tool answers in another frame (STYLE: a prompt is a tool answer
 * framed for a person's slash command, a resource a tool answer at a stable URI). They ask
 * through the one seam, `dispatchTool`, so a fix in an answer reaches all three, and a call
 * here ticks (or not) exactly as the same tool call would.
 */
import { dispatchTool } from '../dispatch/index.js';
import type { Session } from '../session/index.js';

/** A tool's answer: its value, or the error body it answered with (`{ error: { code, message } }`). */
export type Answer = { ok: true; value: Record<string, any> } | { ok: false; error: { code: string; message: string } };

/** Asks `name` through the dispatch seam, as a host's tools/call would. */
export async function askTool(session: Session, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<Answer> {
  const result = await dispatchTool(session.toolsByName, name, args, { session, signal, progress: () => {} });
  if (result.isError) return { ok: false, error: (result.value as { error: { code: string; message: string } }).error };
  return { ok: true, value: result.value as Record<string, any> };
}

export interface FreshnessLike {
  fresh_as_of?: string | null;
  last_tick_at?: string | null;
  backlog?: number;
  pending?: string[];
  armed?: boolean;
}

/** One line a person (or model) reads: how current the map behind a text is. */
export function freshnessLine(f: FreshnessLike | undefined): string {
  if (!f) return 'Freshness: unknown (the map did not answer).';
  const asOf = f.fresh_as_of ? `map fresh as of ${f.fresh_as_of}` : 'map never advanced yet';
  const backlog = f.backlog ? `${f.backlog} path${f.backlog === 1 ? '' : 's'} wait in the backlog` : 'backlog empty';
  const armed = f.armed ? 'armed (traffic advances it)' : 'not armed (advances on ingest/scan)';
  const pending = f.pending?.length ? `; read these directly, they changed since mapped: ${f.pending.slice(0, 10).join(', ')}` : '';
  return `Freshness: ${asOf}; ${backlog}; ${armed}${pending}.`;
}

/** `text` cut to `max` characters on a line boundary, saying that it was cut. */
export function within(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `\n… (cut at ${max} characters; ask the tool for the rest)`;
  const room = max - marker.length;
  const cut = text.lastIndexOf('\n', room);
  return text.slice(0, cut > room / 2 ? cut : room) + marker;
}

/**
 * `text` within `max` characters, its last line kept whole when it is the freshness line: a cut
 * takes from the body, never the line that says how far to trust it.
 */
export function withinKeepingFreshness(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = text.endsWith('\n') ? '\n' : '';
  const body = text.slice(0, text.length - end.length);
  const nl = body.lastIndexOf('\n');
  const last = body.slice(nl + 1);
  if (nl < 0 || !last.startsWith('Freshness:')) return within(text, max);
  return `${within(body.slice(0, nl), max - last.length - 1 - end.length)}\n${last}${end}`;
}

/** A value as compact JSON for a text a model reads (no indentation: every character counts). */
export const compact = (value: unknown): string => JSON.stringify(value);
