// Maintainer script behind `npm run soak -- --minutes N`: an owner through a working day, judged
// (bench/soak/main.ts says what it does and its options). Needs `npm run build` first.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/bench/soak/main.js', import.meta.url));
const r = spawnSync(process.execPath, [main, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
