/**
 * `completion/complete` for prompt arguments and resource template variables: definition names
 * and paths from the map (src/store/map-lists.ts ranks them by prefix), at most MAX_COMPLETIONS.
 * A reference this server does not know (another server's prompt, an unknown template or
 * argument) gets an empty list, not an error: a host asks as a person types, and a miss is
 * not a fault. Without a brain for the session, every list is empty. A path asked for beside a
 * name already given (`who-uses`' `path` after its `name`) lists the files that define the name.
 */
import type { Session } from '../session/index.js';
import { definitionsOf, namesByPrefix, pathsByPrefix } from '../store/index.js';
import { promptNamed } from './prompts.js';
import { RESOURCE_TEMPLATES } from './resources.js';

/** The protocol's own bound on one completion list. */
export const MAX_COMPLETIONS = 100;
/** Longest typed value looked up: a name or a path, not a text. */
const MAX_VALUE_CHARS = 4096;

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

const EMPTY = Object.freeze({ completion: { values: [] as string[], total: 0, hasMore: false } });

/** Which list a template variable draws from. */
const TEMPLATE_LISTS: Record<string, Record<string, 'symbol' | 'path'>> = {
  [RESOURCE_TEMPLATES[0].uriTemplate]: { path: 'path' },
  [RESOURCE_TEMPLATES[1].uriTemplate]: { name: 'symbol' },
};

export function complete(session: Session, ref: CompletionRef, argument: { name: string; value: string }, context?: { arguments?: Record<string, string> }) {
  const list = ref.type === 'ref/prompt'
    ? promptNamed(ref.name)?.arguments.find((a) => a.name === argument.name)?.complete
    : TEMPLATE_LISTS[ref.uri]?.[argument.name];
  if (!list || argument.value.length > MAX_VALUE_CHARS) return EMPTY;
  const brain = session.brain();
  if (!brain) return EMPTY;
  const definedBy = list === 'path' ? context?.arguments?.name : undefined;
  if (definedBy) {
    const lowered = argument.value.toLowerCase();
    const paths = [...new Set(definitionsOf(brain.reader, definedBy).map((d) => d.path))].filter((p) => p.toLowerCase().startsWith(lowered)).sort();
    return { completion: { values: paths.slice(0, MAX_COMPLETIONS), total: paths.length, hasMore: paths.length > MAX_COMPLETIONS } };
  }
  const { values, total } = list === 'symbol'
    ? namesByPrefix(brain.reader, argument.value, MAX_COMPLETIONS)
    : pathsByPrefix(brain.reader, argument.value, MAX_COMPLETIONS);
  return { completion: { values, total, hasMore: total > values.length } };
}
