// The owner's page: brains (live), rooms (a picture, edit and ratify), search, notes, alerts.
// Every view is a client of the REST seam (api.js); everything from the repository is rendered as
// text by htm/Preact (no innerHTML anywhere), under a CSP with no inline script.
import { html, render } from 'htm/preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { callTool, LoginNeeded, readPage, removeBrain, watchBrains } from './api.js';
import { RoomsPicture, autoThreshold, diffRooms, layoutRooms } from './rooms.js';

const VIEWS = ['brains', 'rooms', 'search', 'notes', 'alerts'];
/** Rooms past which the picture starts collapsed by name prefix: ~25 boxes still read at a glance. */
const LARGE_MAP = 25;

function useAsync(fn, deps) {
  const [state, setState] = useState({ loading: true, value: null, error: null });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fn().then((value) => live && setState({ loading: false, value, error: null }), (error) => live && setState({ loading: false, value: null, error }));
    return () => (live = false);
  }, deps);
  return state;
}

const Err = ({ error }) => error ? html`<p class="error" role="alert">${error instanceof LoginNeeded ? 'Your page session ended: run gardener open again.' : error.message}</p>` : null;
const ago = (iso) => {
  if (!iso) return 'never';
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
};

function App() {
  const [brains, setBrains] = useState(null);
  const [stream, setStream] = useState('connecting');
  const [view, setView] = useState(location.hash.slice(1) || 'brains');
  const [brainId, setBrainId] = useState(null);
  useEffect(() => watchBrains((list) => setBrains(list), setStream), []);
  useEffect(() => {
    const f = () => setView(location.hash.slice(1) || 'brains');
    addEventListener('hashchange', f);
    return () => removeEventListener('hashchange', f);
  }, []);
  const brain = brains?.find((b) => b.id === brainId) ?? brains?.[0] ?? null;
  const folder = brain?.roots?.[0] ?? null;
  if (stream === 'login') return html`<main class="login"><h1>Gardener</h1><p>No page session. Run <code>gardener open</code> and open the URL it prints.</p></main>`;
  return html`<div class="shell">
    <header>
      <h1>Gardener</h1>
      <nav role="tablist" aria-label="views">
        ${VIEWS.map((v) => html`<a role="tab" href=${`#${v}`} aria-selected=${view === v} class=${view === v ? 'on' : ''}>${v}</a>`)}
      </nav>
      <label class="brain-pick">brain
        <select value=${brain?.id ?? ''} onChange=${(e) => setBrainId(e.target.value)} aria-label="brain">
          ${(brains ?? []).map((b) => html`<option value=${b.id}>${b.roots[0] ?? b.id}</option>`)}
        </select>
      </label>
      <span class=${`stream ${stream}`} title="the owner pushes the brains list when it changes">${stream}</span>
    </header>
    <main>
      ${view === 'brains' ? html`<${BrainsView} brains=${brains} onPick=${(id) => { setBrainId(id); location.hash = 'rooms'; }} />` : null}
      ${view !== 'brains' && !folder ? html`<p class="empty">No open brain yet: an agent session (or <code>gardener open DIR</code>) opens one.</p>` : null}
      ${view === 'rooms' && folder ? html`<${RoomsView} folder=${folder} key=${folder} />` : null}
      ${view === 'search' && folder ? html`<${SearchView} folder=${folder} key=${folder} />` : null}
      ${view === 'notes' && folder ? html`<${NotesView} folder=${folder} key=${folder} />` : null}
      ${view === 'alerts' && folder ? html`<${AlertsView} folder=${folder} key=${folder} />` : null}
    </main>
  </div>`;
}

function BrainsView({ brains, onPick }) {
  if (!brains) return html`<p>Connecting to the owner…</p>`;
  if (brains.length === 0) return html`<p class="empty">The owner has no brain open. Open one with <code>gardener open DIR</code>, or start an agent session in a project.</p>`;
  return html`<section class="brains">${brains.map((b) => html`<${BrainCard} brain=${b} onPick=${onPick} key=${b.id} />`)}</section>`;
}

function BrainCard({ brain, onPick }) {
  const folder = brain.roots[0];
  const open = brain.open !== false;
  const [opening, setOpening] = useState(null);
  // An open brain's map facts (files, symbols, languages, fresh_as_of) change when a tick ends:
  // re-read them then. A closed brain is shown from its store as the owner read it (read-only):
  // the page opens it in the owner only when a person asks.
  const facts = useAsync(() => (open ? Promise.all([callTool(folder, 'north'), callTool(folder, 'alerts_list')]) : Promise.resolve(null)), [folder, open, brain.last_tick_at, brain.ticking]);
  const [north, alerts] = facts.value ?? [null, null];
  const files = open ? north?.files : brain.files;
  const symbols = open ? north?.symbols : brain.symbols;
  const alertCount = open ? alerts?.alerts.length : brain.alerts;
  const dash = (v) => (v === undefined ? '…' : v === null ? '—' : v);
  return html`<article class=${open ? 'brain' : 'brain closed'} data-brain=${brain.id} data-open=${String(open)} data-files=${files ?? ''} data-gone=${String(brain.gone === true)}>
    <h2><button class="link" onClick=${() => onPick(brain.id)}>${folder}</button></h2>
    ${brain.gone ? html`<p class="meta gone">its folder is gone (<code>gardener brains --prune</code> removes every such brain) <${RemoveGone} brain=${brain} /></p>`
      : open ? null : html`<p class="meta">closed: not open in the owner (shown from its store, read-only)
      <button disabled=${opening === 'busy'} onClick=${() => { setOpening('busy'); callTool(folder, 'north').then(() => setOpening(null), (e) => setOpening(e)); }}>open it</button></p>`}
    <dl>
      <dt>backlog</dt><dd class=${brain.backlog ? 'backlog busy' : 'backlog'} data-backlog=${brain.backlog ?? ''}>${brain.backlog ?? '—'}</dd>
      <dt>ticking</dt><dd>${brain.ticking ? 'yes' : 'no'}</dd>
      <dt>armed</dt><dd>${brain.armed ? 'armed' : 'not armed'}</dd>
      <dt>watch</dt><dd>${brain.watch_backend}</dd>
      <dt>last tick</dt><dd title=${brain.last_tick_at ?? ''}>${ago(brain.last_tick_at)}</dd>
      <dt>fresh as of</dt><dd>${open ? (north ? ago(north.freshness.fresh_as_of) : '…') : ago(brain.fresh_as_of)}</dd>
      <dt>files</dt><dd>${dash(files)}</dd>
      <dt>symbols</dt><dd>${dash(symbols)}</dd>
      <dt>sessions</dt><dd>${brain.sessions}</dd>
      <dt>alerts</dt><dd class=${alertCount ? 'alerts-some' : ''}>${dash(alertCount)}</dd>
    </dl>
    ${north ? html`<p class="langs">${north.languages.slice(0, 8).map((l) => html`<span class="chip">${l.language} ${l.files}</span>`)}</p>` : null}
    ${brain.roots.length > 1 ? html`<p class="roots">also: ${brain.roots.slice(1).join(', ')}</p>` : null}
    <${Err} error=${facts.error || (opening instanceof Error ? opening : null)} />
  </article>`;
}

/**
 * Removing a brain whose folders are gone: two clicks (its store, with the map and the notes
 * agents kept in it, goes for good). The card leaves when the owner's list no longer names it.
 */
function RemoveGone({ brain }) {
  const [state, setState] = useState('idle');
  if (state === 'idle') return html`<button class="remove" onClick=${() => setState('confirm')}>remove this brain</button>`;
  if (state === 'busy') return html`<span class="removing">removing…</span>`;
  return html`<span class="confirm-remove">its store (the map and the notes kept in it) goes for good:
    <button class="remove confirm" onClick=${() => { setState('busy'); removeBrain(brain.id).catch((e) => setState(e)); }}>remove ${brain.id}</button>
    <button onClick=${() => setState('idle')}>keep it</button>
    ${state instanceof Error ? html`<${Err} error=${state} />` : null}</span>`;
}

function RoomsView({ folder }) {
  const [version, setVersion] = useState(0);
  const both = useAsync(() => Promise.all([callTool(folder, 'skeleton', { which: 'ratified' }), callTool(folder, 'skeleton', { which: 'candidate' })]), [folder, version]);
  const [which, setWhich] = useState('candidate');
  const [selected, setSelected] = useState(null);
  const [minImports, setMin] = useState(null);
  const [collapse, setCollapse] = useState(null);
  const [filter, setFilter] = useState('');
  const [focus, setFocus] = useState(false);
  const [fit, setFit] = useState(true);
  const [error, setError] = useState(null);
  const [lease, setLease] = useState(null);
  const [ratified, candidate] = both.value ?? [null, null];
  const shown = which === 'candidate' && candidate?.state === 'candidate' ? candidate : ratified?.state === 'ratified' ? ratified : candidate?.state === 'candidate' ? candidate : null;
  // Past LARGE_MAP rooms the picture starts one level up (rooms collapsed by name prefix) with only the
  // strongest edges; a person opens a level by unticking "collapse", or focuses one room's neighbours.
  const big = (shown?.rooms.length ?? 0) > LARGE_MAP;
  const collapsed = collapse ?? big;
  const threshold = minImports ?? (shown ? autoThreshold(shown.rooms) : 1);
  const picture = useMemo(() => (shown ? layoutRooms(shown.rooms, { minImports: threshold, filter, focus: focus ? selected : null, collapse: collapsed }) : null), [shown, threshold, filter, focus, selected, collapsed]);
  const diff = useMemo(() => (ratified?.rooms && candidate?.rooms ? diffRooms(ratified, candidate) : null), [ratified, candidate]);
  const act = async (fn) => {
    setError(null);
    try {
      await fn();
      setVersion((v) => v + 1);
    } catch (e) {
      setError(e);
    }
  };
  if (both.error) return html`<${Err} error=${both.error} />`;
  if (!both.value) return html`<p>Reading the skeleton…</p>`;
  const room = shown?.rooms.find((r) => r.name === selected) ?? null;
  const group = !room && collapsed ? picture?.nodes.find((n) => n.name === selected)?.room ?? null : null;
  return html`<section class="rooms-view">
    <div class="toolbar">
      <span>showing <strong>${shown ? shown.state : 'nothing'}</strong></span>
      ${ratified?.state === 'ratified' && candidate?.state === 'candidate' ? html`<button onClick=${() => setWhich(which === 'candidate' ? 'ratified' : 'candidate')}>show ${which === 'candidate' ? 'ratified' : 'candidate'}</button>` : null}
      ${candidate?.state !== 'candidate' ? html`<button onClick=${() => act(() => callTool(folder, 'skeleton_candidate', { from: ratified?.state === 'ratified' ? 'ratified' : 'code' }))}>propose a candidate</button>` : null}
      ${candidate?.state === 'candidate' ? html`
        <button onClick=${() => act(async () => setLease(await callTool(folder, 'candidate_lease', { action: 'take', ttl_s: 600 })))}>${lease?.held ?? lease ? 'renew lease' : 'take the edit lease'}</button>
        <button class="primary" onClick=${() => act(async () => { await callTool(folder, 'skeleton_ratify', { store_version: candidate.store_version }); await callTool(folder, 'candidate_lease', { action: 'release' }).catch(() => {}); setLease(null); })}>ratify the candidate</button>` : null}
      <label>filter <input value=${filter} onInput=${(e) => setFilter(e.target.value)} placeholder="room name" /></label>
      <label>min imports <input type="number" min="1" value=${threshold} onInput=${(e) => setMin(Math.max(1, Number(e.target.value) || 1))} /></label>
      <label><input type="checkbox" name="collapse" checked=${collapsed} onChange=${(e) => setCollapse(e.target.checked)} /> collapse by name prefix</label>
      <label><input type="checkbox" checked=${focus} onChange=${(e) => setFocus(e.target.checked)} /> only the selected room's neighbours</label>
      <label><input type="checkbox" checked=${fit} onChange=${(e) => setFit(e.target.checked)} /> fit to width</label>
    </div>
    ${lease ? html`<p class="lease">${lease.you ? `lease held by ${lease.holder ?? lease.you} until ${lease.until}` : JSON.stringify(lease)}</p>` : null}
    <${Err} error=${error} />
    ${!shown ? html`<p class="empty">No skeleton yet: propose a candidate from the code map.</p>` : html`
      <div class="picture">${picture.hidden ? html`<p class="hidden-note">${picture.hidden} rooms hidden by the filter</p>` : null}<${RoomsPicture} picture=${picture} fit=${fit} selected=${selected} onSelect=${setSelected} diff=${shown.state === 'candidate' ? diff : null} /></div>
      <div class="side">
        ${room ? html`<${RoomPanel} room=${room} folder=${folder} skeleton=${shown} editable=${shown.state === 'candidate'} act=${act} lease=${lease} onLease=${setLease} />` : group ? html`<div class="room-panel"><h3>${group.name}</h3><p>${group.purpose}</p><p>${group.files} files</p><button onClick=${() => { setFilter(group.name); setCollapse(false); }}>open this level</button></div>` : html`<p>Select a room (click, or Tab and Enter).</p>`}
        ${diff && shown.state === 'candidate' ? html`<h3>Candidate against ratified</h3><ul class="diff">
          ${[...diff.added].map((n) => html`<li class="added">+ ${n}</li>`)}
          ${diff.removed.map((n) => html`<li class="removed">− ${n}</li>`)}
          ${diff.lines.map((l) => html`<li class="changed">~ ${l.name}: ${l.files[0]} → ${l.files[1]} files${l.globs ? ` (globs ${l.globs[0]} → ${l.globs[1]})` : ''}</li>`)}
          ${diff.added.size + diff.removed.length + diff.lines.length === 0 ? html`<li>no difference</li>` : null}
        </ul>` : null}
        <h3>Breaks of may_use (${shown.violations.count})</h3>
        <ul class="violations">${shown.violations.items.map((v) => html`<li>${v.file}:${v.line} ${v.from} → ${v.to} (${v.module})</li>`)}</ul>
        <h3>Files in no room (${shown.unroomed.count})</h3>
        <ul class="unroomed">${shown.unroomed.paths.map((p) => html`<li>${p}</li>`)}</ul>
      </div>`}
  </section>`;
}

function RoomPanel({ room, folder, skeleton, editable, act, lease, onLease }) {
  const [name, setName] = useState(room.name);
  const [purpose, setPurpose] = useState(room.purpose);
  const [mayUse, setMayUse] = useState(room.may_use ? room.may_use.join(', ') : '');
  const [globs, setGlobs] = useState('');
  useEffect(() => { setName(room.name); setPurpose(room.purpose); setMayUse(room.may_use ? room.may_use.join(', ') : ''); }, [room.name, skeleton.store_version]);
  const save = () => {
    const edits = [];
    if (purpose !== room.purpose) edits.push({ op: 'set_purpose', room: room.name, purpose });
    const mu = mayUse.trim() === '' ? null : mayUse.split(',').map((s) => s.trim()).filter(Boolean);
    if (JSON.stringify(mu) !== JSON.stringify(room.may_use ?? null)) edits.push({ op: 'set_may_use', room: room.name, may_use: mu });
    if (globs.trim()) edits.push({ op: 'move_globs', globs: globs.split(/[\s,]+/).filter(Boolean), to: room.name });
    if (name !== room.name) edits.push({ op: 'rename', room: room.name, to: name });
    // The edit holds the candidate lease (the reconciler cedes to it), then is keyed on the
    // version read after taking it: the lease is advisory and may itself move the version.
    if (edits.length) act(async () => {
      if (!lease?.you) onLease(await callTool(folder, 'candidate_lease', { action: 'take', ttl_s: 600 }));
      const now = await callTool(folder, 'skeleton', { which: 'candidate' });
      await callTool(folder, 'skeleton_edit', { store_version: now.store_version, edits });
    });
  };
  return html`<div class="room-panel">
    <h3>${room.name}</h3>
    <p class="purpose">${room.purpose}</p>
    <p>${room.files} files · globs: ${room.globs.join(' ')}</p>
    ${room.key_files.length ? html`<p>key files: ${room.key_files.join(', ')}</p>` : null}
    <p>uses: ${room.uses.map((u) => `${u.room} (${u.imports})`).join(', ') || 'nothing'}</p>
    ${editable ? html`<form class="edit" onSubmit=${(e) => { e.preventDefault(); save(); }}>
      <label>name <input name="name" value=${name} onInput=${(e) => setName(e.target.value)} /></label>
      <label>purpose <input name="purpose" value=${purpose} onInput=${(e) => setPurpose(e.target.value)} /></label>
      <label>may_use (comma-separated; empty for no rule) <input name="may_use" value=${mayUse} onInput=${(e) => setMayUse(e.target.value)} /></label>
      <label>move globs here <input name="globs" value=${globs} onInput=${(e) => setGlobs(e.target.value)} placeholder="src/foo/**" /></label>
      <button type="submit">save edits</button>
    </form>` : html`<p class="hint">The ratified map changes through a candidate: propose one to edit.</p>`}
  </div>`;
}

/** Lines around the hits, keyed `path:line`, read by the owner under the tools' rules. */
async function linesOf(folder, hits) {
  const asks = [];
  const seen = new Set();
  for (const h of hits) {
    const k = `${h.path}:${h.line}`;
    if (!h.line || seen.has(k) || asks.length >= 40) continue;
    seen.add(k);
    asks.push({ path: h.path, line: h.line });
  }
  if (asks.length === 0) return new Map();
  const { files } = await readPage(folder, 'lines', { hits: asks });
  return new Map(files.map((f) => [`${f.path}:${f.line}`, f]));
}

function Lines({ at }) {
  if (!at) return null;
  if (!at.lines) return html`<p class="meta">${at.why}</p>`;
  return html`<pre class="lines">${at.lines.map((l, i) => html`<span class=${at.from + i === at.line ? 'hit-line' : ''}><span class="ln">${String(at.from + i).padStart(5)} </span>${l}</span>`)}</pre>`;
}

function SearchView({ folder }) {
  const [query, setQuery] = useState('');
  const [ask, setAsk] = useState(null);
  const result = useAsync(async () => {
    if (!ask) return null;
    if (ask.kind === 'seek') {
      const v = await callTool(folder, 'seek', { query: ask.q, scope: 'code', limit: 30 });
      return { kind: 'seek', v, lines: await linesOf(folder, v.code ?? []) };
    }
    if (ask.kind === 'refs') {
      const v = await callTool(folder, 'refs', { name: ask.q });
      return { kind: 'refs', v, lines: await linesOf(folder, v.definitions ?? []) };
    }
    if (ask.kind === 'history') return { kind: 'history', v: await readPage(folder, 'history', { path: ask.q }) };
    return { kind: 'impact', v: await callTool(folder, 'impact', { path: ask.q }) };
  }, [ask]);
  const r = result.value;
  const pending = new Set(r?.v?.freshness?.pending ?? []);
  const mark = (p) => (pending.has(p) ? html` <span class="pending" title="changed since it was mapped: read the file itself">pending</span>` : null);
  const go = (kind, q) => { setQuery(q); setAsk({ kind, q }); };
  const fileLinks = (p) => html` <button class="link" onClick=${() => go('impact', p)}>impact</button> <button class="link" onClick=${() => go('history', p)}>history</button>`;
  return html`<section class="search">
    <form onSubmit=${(e) => { e.preventDefault(); setAsk({ kind: 'seek', q: query }); }}>
      <input aria-label="search" value=${query} onInput=${(e) => setQuery(e.target.value)} placeholder="a name, words, or a path for impact and history" />
      <button type="submit">seek</button>
      <button type="button" onClick=${() => setAsk({ kind: 'refs', q: query })}>refs</button>
      <button type="button" onClick=${() => setAsk({ kind: 'impact', q: query })}>impact</button>
      <button type="button" onClick=${() => setAsk({ kind: 'history', q: query })}>history</button>
    </form>
    ${result.loading && ask ? html`<p class="meta">asking…</p>` : null}
    <${Err} error=${result.error} />
    ${r?.v?.why ? html`<p class="empty">${r.v.why}</p>` : null}
    ${r?.kind === 'seek' ? html`<ol class="hits">${r.v.code.map((h) => html`<li>
      <code>${h.path}:${h.line}</code>${mark(h.path)} ${h.symbol ? html`<strong>${h.symbol}</strong> <em>${h.kind}</em>` : null}
      ${h.symbol ? html` <button class="link" onClick=${() => go('refs', h.symbol)}>who uses it</button>` : null}${fileLinks(h.path)}
      ${r.lines.get(`${h.path}:${h.line}`) ? html`<${Lines} at=${r.lines.get(`${h.path}:${h.line}`)} />` : h.snippet ? html`<pre>${h.snippet}</pre>` : null}
    </li>`)}</ol>` : null}
    ${r?.kind === 'refs' ? html`<div class="refs"><h3>Definitions of ${r.v.name}</h3>
      <ul>${r.v.definitions.map((d) => html`<li><code>${d.path}:${d.line}</code> ${d.kind}${mark(d.path)}${fileLinks(d.path)}<${Lines} at=${r.lines.get(`${d.path}:${d.line}`)} /></li>`)}</ul>
      <h3>Used in ${r.v.references.length} files</h3>
      <ul>${r.v.references.map((f) => html`<li><code>${f.path}</code>${f.room ? html` <span class="chip">${f.room}</span>` : null}${mark(f.path)}: ${f.uses.map((u) => `${u.line}${u.in ? ` in ${u.in}` : ''}`).join(', ')}
        ${fileLinks(f.path)}</li>`)}</ul></div>` : null}
    ${r?.kind === 'impact' && r.v.files ? html`<div class="impact"><h3>Tests to run (${r.v.tests_total ?? r.v.tests?.length ?? 0})</h3>
      <ul class="tests">${(r.v.tests ?? []).map((t) => html`<li><code>${typeof t === 'string' ? t : t.path}</code></li>`)}</ul>
      ${(r.v.tests ?? []).length === 0 ? html`<p class="empty">No test reaches it.</p>` : null}
      <h3>May break (${r.v.total} files)</h3>
      <ul>${r.v.files.map((f) => html`<li><code>${f.path}</code> <span class="meta">distance ${f.distance} via ${f.via}</span>${f.room ? html` <span class="chip">${f.room}</span>` : null}${mark(f.path)}</li>`)}</ul></div>` : null}
    ${r?.kind === 'impact' && !r.v.files ? html`<pre class="json">${JSON.stringify(r.v, null, 2)}</pre>` : null}
    ${r?.kind === 'history' ? html`<div class="history"><h3>History of <code>${r.v.path}</code>${mark(r.v.path)}</h3>
      <p class="meta">${r.v.touched_by} commits touched it (history ${r.v.history.status}${r.v.history.note ? `: ${r.v.history.note}` : ''}, ${r.v.history.commits} commits mined)</p>
      <h4>Recent commits</h4>
      <ul>${r.v.commits.map((c) => html`<li class="commit"><code>${c.sha.slice(0, 12)}</code> <span class="meta">${c.at.slice(0, 16).replace('T', ' ')} · ${c.files} files</span></li>`)}</ul>
      <h4>Changes with it</h4>
      <ul>${r.v.changes_with.map((f) => html`<li class="cochange"><code>${f.path}</code> <span class="meta">${f.commits} commits together</span> <button class="link" onClick=${() => go('history', f.path)}>history</button></li>`)}</ul>
      ${r.v.changes_with.length === 0 ? html`<p class="empty">No file changed with it.</p>` : null}</div>` : null}
  </section>`;
}

function NotesView({ folder }) {
  const [q, setQ] = useState('');
  const [ask, setAsk] = useState('');
  const notes = useAsync(() => (ask ? callTool(folder, 'seek', { query: ask, scope: 'notes', limit: 50 }) : callTool(folder, 'boot_memory', { budget_tokens: 20000 })), [folder, ask]);
  return html`<section class="notes">
    <form onSubmit=${(e) => { e.preventDefault(); setAsk(q.trim()); }}><input aria-label="search notes" value=${q} onInput=${(e) => setQ(e.target.value)} placeholder="search notes" /><button>search</button></form>
    <${Err} error=${notes.error} />
    <ul>${(notes.value?.notes ?? []).map((n) => html`<li class=${n.stale?.length ? 'note stale' : 'note'}>
      <p class="note-text">${n.text}</p>
      <p class="meta">#${n.id} ${n.tags.map((t) => html`<span class="chip">${t}</span>`)} ${n.files.join(', ')}</p>
      ${n.stale?.length ? html`<p class="stale-mark">stale: ${n.stale.map((s) => `${s.path}${s.name ? ` ${s.name}` : ''}${s.removed || s.gone ? ' (gone)' : ''}${s.moved_to ? ` moved to ${s.moved_to}` : ''}${s.changed_at ? ` changed ${ago(s.changed_at)}` : ''}`).join('; ')}</p>` : null}
    </li>`)}</ul>
    ${notes.value && (notes.value.notes ?? []).length === 0 ? html`<p class="empty">No notes.</p>` : null}
  </section>`;
}

function AlertsView({ folder }) {
  const [n, setN] = useState(0);
  const [error, setError] = useState(null);
  const alerts = useAsync(() => callTool(folder, 'alerts_list', { include_acked: true }), [folder, n]);
  const ack = async (id) => {
    try {
      await callTool(folder, 'alerts_ack', { id });
      setN((x) => x + 1);
    } catch (e) {
      setError(e);
    }
  };
  const list = alerts.value?.alerts ?? [];
  return html`<section class="alerts">
    <${Err} error=${alerts.error || error} />
    ${list.length === 0 && alerts.value ? html`<p class="empty">No alerts.</p>` : null}
    <ul>${list.map((a) => html`<li class=${a.acked ? 'alert acked' : 'alert'}>
      <strong>${a.code}</strong> ${a.message} ${a.path ? html`<code>${a.path}</code>` : null} <span class="meta">${ago(a.created_at)}</span>
      ${a.acked ? html`<span class="meta">acknowledged</span>` : html`<button onClick=${() => ack(a.id)}>acknowledge</button>`}
    </li>`)}</ul>
  </section>`;
}

render(html`<${App} />`, document.getElementById('app'));
