/**
 * MCP beyond tools (DESIGN §6): prompts, resources, completions and the session feed (logging
 * and resource updates). Transports reach it through this file only, lazily: nothing here is
 * loaded for the first frame.
 */
export { PROMPTS, listPrompts, getPrompt, MAX_PROMPT_CHARS } from './prompts.js';
export { listResources, readResource, RESOURCE_TEMPLATES, STATUS_URI, SKELETON_URI, SUBSCRIBABLE } from './resources.js';
export { complete, MAX_COMPLETIONS, type CompletionRef } from './completions.js';
export { SessionFeed, ALERT_LEVELS, type FeedSink, type LogLevel } from './session-feed.js';
export { asProtocolError } from './protocol-errors.js';
