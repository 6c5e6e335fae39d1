/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
import { monotonicNow } from '../timers.js';

const BAR_WIDTH = 30;
/** Redraw at most this often, in ms: a terminal does not need 1000 redraws for 1000 files. */
const REDRAW_MS = 50;

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY) return { update: (_d: number, _t: number) => {}, done: () => {} };
  let last = -Infinity;
  const draw = (done: number, total: number) => {
    const frac = total > 0 ? Math.min(1, done / total) : 1;
    const full = Math.round(frac * BAR_WIDTH);
    stream.write(`\r${label} [${'#'.repeat(full)}${' '.repeat(BAR_WIDTH - full)}] ${done}/${total}`);
  };
  return {
    update(done: number, total: number) {
      const now = monotonicNow();
      if (now - last < REDRAW_MS && done < total) return;
      last = now;
      draw(done, total);
    },
    done() {
      stream.write('\n');
    },
  };
}
