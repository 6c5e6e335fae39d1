/** Skip-list verbs about the session and its alerts: they never tick. */
import { z } from 'zod';
import { defineTool } from '../dispatch/index.js';
import { READ_ONLY } from './answer-schemas.js';
import { InvalidArgumentError, noBrainHint } from '../errors.js';
import { listAlerts, listRoots } from '../store/index.js';
import { VERSION } from '../version.js';
import { freshnessOf } from './freshness.js';

export const sessionHandshakeTool = defineTool({
  name: 'session_handshake',
  annotations: READ_ONLY,
  description: 'Server version, session folder, brain, arming, backend and freshness.',
  traffic: 'skip',
  input: z.object({}).strict(),
  handler: async (_args, { session }) => {
    const brain = session.brain();
    if (!brain) {
      return {
        server_version: VERSION,
        session_folder: session.folder,
        anchor: session.anchor,
        watched: session.watched(),
        brain: null,
        hint: noBrainHint(session.anchor, session.brains.home, 'call ingest to create one'),
      };
    }
    const roots = listRoots(brain.reader);
    const freshness = freshnessOf(brain);
    return {
      server_version: VERSION,
      session_folder: session.folder,
      anchor: session.anchor,
      watched: session.watched(),
      brain: brain.id,
      armed: freshness.armed,
      watch_backend: session.watch.backendOf(brain.id),
      backend: roots[0]?.backend ?? null,
      roots: roots.map((r) => r.path),
      driver: brain.reader.driver,
      sqlite: brain.reader.sqliteVersion,
      freshness,
    };
  },
});

export const alertsListTool = defineTool({
  name: 'alerts_list',
  annotations: READ_ONLY,
  description: "The brain's unacknowledged alerts (failed ticks, unreadable files).",
  traffic: 'skip',
  input: z.object({ include_acked: z.boolean().default(false) }).strict(),
  handler: async ({ include_acked }, { session }) => {
    const brain = session.requireBrain();
    return {
      alerts: listAlerts(brain.reader, { includeAcked: include_acked }).map((a) => ({
        id: a.id,
        code: a.code,
        message: a.message,
        path: a.path,
        created_at: new Date(a.createdAt).toISOString(),
        acked: a.ackedAt !== null,
      })),
    };
  },
});

export const alertsAckTool = defineTool({
  name: 'alerts_ack',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  description: 'Acknowledge an alert by id.',
  traffic: 'skip',
  input: z.object({ id: z.number().int().positive() }).strict(),
  handler: async ({ id }, { session }) => {
    const brain = session.requireBrain();
    if (!(await brain.writer.ackAlert(id, Date.now()))) throw new InvalidArgumentError(`no alert with id ${id}: alerts_list shows the ids`);
    return { id, acked: true };
  },
});

