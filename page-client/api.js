// The page's only way to the owner: the REST seam (POST /page/api/tools/<name>) and the brains
// stream. Nothing here knows a store, a path rule or a tool's internals: what an agent is
// answered is what the page shows.

export class LoginNeeded extends Error {}

/** A tool call for the session folder `folder`; resolves to the tool's answer, rejects with its message. */
export function callTool(folder, name, args = {}) {
  return post(`/page/api/tools/${name}?folder=${encodeURIComponent(folder)}`, args);
}

/**
 * One of the page's reads that are not tools (code lines around hits, a file's history): the
 * owner answers them under the tools' rules (src/tools/page-reads.ts).
 */
export function readPage(folder, what, body) {
  return post(`/page/api/read/${what}?folder=${encodeURIComponent(folder)}`, body);
}

/** Removes a brain whose folders are all gone (the owner refuses one whose folders are there). */
export function removeBrain(id) {
  return post('/page/api/brains/remove', { id });
}

async function post(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const value = await res.json().catch(() => null);
  if (res.status === 401) throw new LoginNeeded(value?.error?.message ?? 'log in again with gardener open');
  if (!res.ok) throw new Error(value?.error ? `${value.error.message} [${value.error.code}]` : `HTTP ${res.status}`);
  return value;
}

/** The live brains list: calls `onBrains(list, at)` now and at every change the owner pushes. */
export function watchBrains(onBrains, onState) {
  const source = new EventSource('/page/api/events');
  source.addEventListener('brains', (e) => {
    const { brains, at } = JSON.parse(e.data);
    onState('live');
    onBrains(brains, at);
  });
  source.onerror = async () => {
    onState(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
    // A stream refused for want of a session will never come back by itself: say so.
    const r = await fetch('/page/api/brains').catch(() => null);
    if (r && r.status === 401) {
      source.close();
      onState('login');
    }
  };
  return () => source.close();
}
