#!/usr/bin/env node
// Prints the size of tools/list as a host receives it: name + description + inputSchema +
// outputSchema (+ annotations) of every tool, as compact JSON characters, per tool and in all.
// Run after `npm run build`: node scripts/measure-tool-list.mjs
import { TOOLS } from '../dist/src/tools/index.js';
import { listedTool } from '../dist/src/transports/tool-schemas.js';

let total = 0;
const rows = [];
for (const t of TOOLS) {
  const l = listedTool(t);
  const parts = { name: l.name.length, description: l.description.length, input: JSON.stringify(l.inputSchema).length, output: l.outputSchema ? JSON.stringify(l.outputSchema).length : 0 };
  const all = JSON.stringify(l).length;
  total += all;
  rows.push({ tool: l.name, ...parts, all });
}
console.table(rows);
const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
console.log(`tools/list: ${total} characters (descriptions ${sum('description')}, input ${sum('input')}, output ${sum('output')})`);
