/**
 * The closest lines to a missed `old_string`, by a simple measure: the Dice coefficient of the
 * character bigrams of whitespace-trimmed lines, averaged over a window as tall as `old_string`
 * (docs/tools.md "edit_file"). Bounded: tall windows over long files fall back to comparing the
 * single most telling line of `old_string`.
 */

const MAX_WINDOW = 20;
const MAX_COMPARISONS = 2_000_000;
const MAX_LINE = 400;
const MIN_SCORE = 0.35;
const SHOW_CHARS = 200;

/** Sorted bigram codes of a trimmed line (at most MAX_LINE characters are looked at). */
function bigrams(line: string): Int32Array {
  const t = line.trim().slice(0, MAX_LINE);
  if (t.length < 2) {
    return t.length === 1 ? Int32Array.of(t.charCodeAt(0)) : new Int32Array(0);
  }
  const out = new Int32Array(t.length - 1);
  for (let i = 0; i < out.length; i++) out[i] = (t.charCodeAt(i) << 16) | t.charCodeAt(i + 1);
  return out.sort();
}

function dice(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0, j = 0, common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return (2 * common) / (a.length + b.length);
}

function cut(line: string): string {
  return line.length > SHOW_CHARS
    ? `${line.slice(0, SHOW_CHARS)}... [+${line.length - SHOW_CHARS} chars]`
    : line;
}

/**
 * The best-matching lines of `text` for `old`, formatted as read_file shows them
 * (`%6d<TAB>text`), or a sentence saying nothing came close.
 */
export function closestLines(text: string, old: string): string {
  const lines = text.split("\n");
  let wanted = old.split("\n");
  while (wanted.length > 1 && wanted[0].trim() === "") wanted.shift();
  while (wanted.length > 1 && wanted[wanted.length - 1].trim() === "") wanted.pop();
  if (wanted.length > MAX_WINDOW) wanted = wanted.slice(0, MAX_WINDOW);
  if (wanted.length * lines.length > MAX_COMPARISONS) {
    // The longest line is the most telling one.
    wanted = [wanted.reduce((a, b) => (b.trim().length > a.trim().length ? b : a))];
  }
  const k = wanted.length;
  const want = wanted.map(bigrams);
  const have: (Int32Array | undefined)[] = new Array(lines.length);
  const codes = (i: number) => (have[i] ??= bigrams(lines[i]));
  const scores: { at: number; score: number }[] = [];
  const last = Math.max(0, lines.length - k);
  for (let j = 0; j <= last; j++) {
    let sum = 0;
    for (let i = 0; i < k; i++) sum += j + i < lines.length ? dice(want[i], codes(j + i)) : 0;
    const score = sum / k;
    if (score >= MIN_SCORE) scores.push({ at: j, score });
  }
  if (scores.length === 0) return "no line of the file is close to it";
  scores.sort((a, b) => b.score - a.score || a.at - b.at);
  const picked: number[] = [];
  for (const s of scores) {
    if (picked.every((p) => Math.abs(p - s.at) >= k)) picked.push(s.at);
    if (picked.length === (k === 1 ? 3 : 1)) break;
  }
  picked.sort((a, b) => a - b);
  const shown: string[] = [];
  for (const at of picked) {
    for (let i = at; i < Math.min(at + k, lines.length); i++) {
      const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
      shown.push(`${String(i + 1).padStart(6)}\t${cut(line)}`);
    }
  }
  return `the closest line${shown.length === 1 ? " is" : "s are"}:\n${shown.join("\n")}`;
}
