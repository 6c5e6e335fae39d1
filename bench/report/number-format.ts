/**
 * How the bench's numbers are written, for the table (text.ts) and docs/benchmarks.md
 * (markdown.ts): one rule with one difference, the whole numbers of 100 and up, which the page
 * groups by thousands (`1,234`) and the table does not (its columns are aligned instead).
 */
import type { BenchTarget } from './shape.js';

export interface NumberFormat {
  /** A size or a time: whole from 100 up, one decimal below. */
  fmt(x: number): string;
  /** A latency: as `fmt` from 10 ms up, two decimals below (small latencies such as seek's sit there). */
  fmtMs(x: number): string;
  /** A judged target's value with its unit; ratios keep two decimals, their targets sit close to 1. */
  valueText(t: BenchTarget): string;
}

function numberFormat(whole: (x: number) => string): NumberFormat {
  const fmt = (x: number) => (x >= 100 ? whole(Math.round(x)) : x.toFixed(1));
  const fmtMs = (x: number) => (x >= 10 ? fmt(x) : x.toFixed(2));
  const valueText = (t: BenchTarget) => (t.value === null ? '—' : t.unit === 'x' ? `${t.value.toFixed(2)}×` : `${t.unit === 'ms' ? fmtMs(t.value) : fmt(t.value)} ${t.unit}`);
  return Object.freeze({ fmt, fmtMs, valueText });
}

/** The table's numbers: `1234`. */
export const PLAIN = numberFormat(String);
/** The page's numbers: `1,234`. */
export const GROUPED = numberFormat((x) => x.toLocaleString('en-US'));
