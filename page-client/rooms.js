// The rooms picture: dagre lays the rooms out (no hand-written layout); this file only draws
// what it returns as SVG. Everything from the repository (room names, counts) goes in as text
// nodes, never as markup.
import dagre from '@dagrejs/dagre';
import { html } from 'htm/preact';

/** Box size from a room's file count: area grows with files, bounded so one giant room cannot hide the rest. */
export function boxOf(files) {
  const side = Math.min(220, 90 + 14 * Math.sqrt(files));
  return { width: Math.round(side * 1.5), height: Math.round(Math.max(44, side * 0.45)) };
}

/** Does an import from `from` to `to` break `from`'s may_use? */
export function breaks(room, to) {
  return Array.isArray(room.may_use) && !room.may_use.includes(to);
}

/**
 * The laid-out picture of `rooms` (the skeleton answer's), keeping only edges of at least
 * `minImports` and, when `focus` names a room, only it and its neighbours.
 */
export function layoutRooms(allRooms, { minImports = 1, focus = null, filter = '', collapse = false } = {}) {
  const rooms = collapse ? collapseRooms(allRooms) : allRooms;
  const byName = new Map(rooms.map((r) => [r.name, r]));
  let keep = rooms.filter((r) => !filter || r.name.toLowerCase().includes(filter.toLowerCase()));
  if (focus && byName.has(focus)) {
    const near = new Set([focus]);
    for (const r of rooms) for (const u of r.uses) {
      if (u.imports < minImports) continue;
      if (r.name === focus) near.add(u.room);
      if (u.room === focus) near.add(r.name);
    }
    keep = keep.filter((r) => near.has(r.name));
  }
  const kept = new Set(keep.map((r) => r.name));
  const g = new dagre.graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 70, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  const edges = [];
  for (const r of keep) for (const u of r.uses) {
    // A break of may_use is always drawn, whatever the threshold: it is what a person must see.
    if ((u.imports < minImports && !breaks(r, u.room)) || !kept.has(u.room) || u.room === r.name) continue;
    edges.push({ from: r.name, to: u.room, imports: u.imports, broken: breaks(r, u.room) });
  }
  // Rooms with no drawn arrow are not handed to dagre (it would line them up in one wide rank
  // that shrinks the whole picture); they are packed in rows under it.
  const linked = new Set(edges.flatMap((e) => [e.from, e.to]));
  for (const r of keep) if (linked.has(r.name)) g.setNode(r.name, { ...boxOf(r.files), room: r });
  for (const e of edges) g.setEdge(e.from, e.to, { label: String(e.imports), width: 24, height: 14, e });
  dagre.layout(g);
  const graph = g.graph();
  const nodes = g.nodes().map((n) => ({ name: n, ...g.node(n) }));
  let width = linked.size ? graph.width ?? 0 : 0;
  let height = linked.size ? graph.height ?? 0 : 0;
  const loose = keep.filter((r) => !linked.has(r.name));
  if (loose.length) {
    const rowWidth = Math.max(width, LOOSE_ROW_MIN_WIDTH);
    let x = 16, y = height + 16, rowHeight = 0;
    for (const r of loose) {
      const box = boxOf(r.files);
      if (x + box.width > rowWidth && x > 16) { x = 16; y += rowHeight + 16; rowHeight = 0; }
      nodes.push({ name: r.name, ...box, room: r, x: x + box.width / 2, y: y + box.height / 2 });
      x += box.width + 16;
      rowHeight = Math.max(rowHeight, box.height);
      width = Math.max(width, x);
    }
    height = y + rowHeight + 16;
  }
  return {
    width: Math.max(200, width),
    height: Math.max(100, height),
    nodes,
    edges: g.edges().map((ed) => ({ ...g.edge(ed).e, points: g.edge(ed).points, x: g.edge(ed).x, y: g.edge(ed).y })),
    hidden: rooms.length - keep.length,
  };
}

/** Rooms with no drawn arrow are packed in rows at least this wide (px). */
const LOOSE_ROW_MIN_WIDTH = 900;
/** "Fit to width" never shrinks the picture below this scale: smaller, the names cannot be read. */
const MIN_FIT_SCALE = 0.6;
/** The width the picture is fitted to (px): the picture's box on a laptop screen. */
const FIT_WIDTH = 980;

export function RoomsPicture({ picture, selected, onSelect, diff, fit = true }) {
  const { width, height, nodes, edges } = picture;
  const scale = fit ? Math.max(MIN_FIT_SCALE, Math.min(1, FIT_WIDTH / width)) : 1;
  return html`<svg class="rooms" viewBox="0 0 ${width} ${height}" width=${Math.round(width * scale)} height=${Math.round(height * scale)} role="img" aria-label="rooms and the imports between them">
    <defs>
      <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead" /></marker>
      <marker id="arrow-red" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead broken" /></marker>
    </defs>
    ${edges.map((e) => html`<g class=${e.broken ? 'edge broken' : 'edge'}>
      <title>${e.from} → ${e.to}: ${e.imports} imports${e.broken ? ' (breaks may_use)' : ''}</title>
      <polyline points=${e.points.map((p) => `${p.x},${p.y}`).join(' ')} marker-end=${e.broken ? 'url(#arrow-red)' : 'url(#arrow)'} />
      <text x=${e.x} y=${e.y + 4} class="edge-label">${e.imports}</text>
    </g>`)}
    ${nodes.map((n) => {
      const cls = ['room', n.name === selected ? 'selected' : '', diff?.added.has(n.name) ? 'added' : '', diff?.changed.has(n.name) ? 'changed' : '', n.room.draft ? 'draft' : ''].join(' ');
      const key = (ev) => (ev.key === 'Enter' || ev.key === ' ') && (ev.preventDefault(), onSelect(n.name));
      return html`<g class=${cls} tabindex="0" role="button" aria-label=${`room ${n.name}, ${n.room.files} files`} onClick=${() => onSelect(n.name)} onKeyDown=${key} transform=${`translate(${n.x - n.width / 2},${n.y - n.height / 2})`}>
        <rect width=${n.width} height=${n.height} rx="6" />
        <text x="8" y="18" class="room-name">${n.name}</text>
        <text x="8" y="34" class="room-files">${n.room.files} files</text>
      </g>`;
    })}
  </svg>`;
}

/** What the candidate changes against the ratified map: rooms added, removed, and those whose globs or files differ. */
export function diffRooms(ratified, candidate) {
  const r = new Map((ratified?.rooms ?? []).map((x) => [x.name, x]));
  const c = new Map((candidate?.rooms ?? []).map((x) => [x.name, x]));
  const added = new Set([...c.keys()].filter((n) => !r.has(n)));
  const removed = [...r.keys()].filter((n) => !c.has(n));
  const changed = new Set();
  const lines = [];
  for (const [n, room] of c) {
    const old = r.get(n);
    if (!old) continue;
    const globsOld = old.globs.join(' '), globsNew = room.globs.join(' ');
    if (globsOld !== globsNew || old.files !== room.files || JSON.stringify(old.may_use ?? null) !== JSON.stringify(room.may_use ?? null) || old.purpose !== room.purpose) {
      changed.add(n);
      lines.push({ name: n, files: [old.files, room.files], globs: globsOld !== globsNew ? [globsOld, globsNew] : null, purpose: old.purpose !== room.purpose ? [old.purpose, room.purpose] : null });
    }
  }
  return { added, removed, changed, lines };
}

/**
 * The prefix a room is collapsed into: its name up to the first `-`, `/` or `.` ("store-notes" →
 * "store"), after the leading words most rooms share ("dubbo-rpc-api" → "rpc" when most rooms
 * start with "dubbo-"): a shared prefix would put every room in one group.
 */
export function levelOf(name, shared = []) {
  const parts = name.split(/[-/.]/);
  let i = 0;
  while (i < shared.length && i < parts.length - 1 && parts[i] === shared[i]) i++;
  return parts.slice(0, i + 1).join('-') || name;
}

/** The leading words more than half the rooms share ("dubbo" for dubbo-cluster, dubbo-rpc-api…). */
export function sharedPrefix(names) {
  const shared = [];
  for (let depth = 0; depth < 3; depth++) {
    const count = new Map();
    for (const n of names) {
      const parts = n.split(/[-/.]/);
      if (parts.length <= depth + 1 || shared.some((w, k) => parts[k] !== w)) continue;
      count.set(parts[depth], (count.get(parts[depth]) ?? 0) + 1);
    }
    const top = [...count].sort((a, b) => b[1] - a[1])[0];
    if (!top || top[1] <= names.length / 2) break;
    shared.push(top[0]);
  }
  return shared;
}

/** Rooms merged by prefix (one level up): files summed, imports between groups summed, breaks kept as breaks. */
export function collapseRooms(rooms) {
  const groups = new Map();
  const shared = sharedPrefix(rooms.map((r) => r.name));
  const groupOf = new Map(rooms.map((r) => [r.name, levelOf(r.name, shared)]));
  for (const r of rooms) {
    const name = groupOf.get(r.name);
    let g = groups.get(name);
    if (!g) groups.set(name, (g = { name, purpose: '', globs: [], files: 0, key_files: [], key_symbols: [], uses: new Map(), members: [], brokenTo: new Set() }));
    g.files += r.files;
    g.globs.push(...r.globs);
    g.members.push(r.name);
    for (const u of r.uses) {
      const to = groupOf.get(u.room) ?? u.room;
      g.uses.set(to, (g.uses.get(to) ?? 0) + u.imports);
      if (breaks(r, u.room)) g.brokenTo.add(to);
    }
  }
  return [...groups.values()].map((g) => ({
    ...g,
    purpose: `${g.members.length} rooms: ${g.members.join(', ')}`,
    uses: [...g.uses].map(([room, imports]) => ({ room, imports })),
    // may_use of a group is "everything but what a member breaks", so a member's break stays red.
    may_use: g.brokenTo.size ? [...groups.keys()].filter((k) => !g.brokenTo.has(k)) : undefined,
  }));
}

/** The lowest import threshold that draws at most `perRoom` edges per room (breaks always drawn). */
export function autoThreshold(rooms, perRoom = 1.5) {
  const counts = rooms.flatMap((r) => r.uses.filter((u) => u.room !== r.name).map((u) => u.imports)).sort((a, b) => b - a);
  const budget = Math.max(8, Math.round(rooms.length * perRoom));
  return counts.length <= budget ? 1 : Math.max(1, counts[budget - 1]);
}
