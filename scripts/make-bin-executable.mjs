// Maintainer helper run by `npm run build`: tsc drops the executable bit, npm link needs it.
import { chmodSync, existsSync } from 'node:fs';
const bin = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(bin)) chmodSync(bin, 0o755);
