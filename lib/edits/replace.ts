/**
 * The string replacement of edit_file (docs/tools.md "edit_file"): `old` must occur exactly once,
 * or at least once with `replaceAll`. Misses and ambiguities are explained in the words the model
 * needs: the closest lines, or the line numbers of every match.
 */
import { closestLines } from "./similar.ts";

export type ReplaceOutcome =
  | { kind: "ok"; text: string; replacements: number; offsets: number[] }
  | { kind: "missing"; closest: string }
  | { kind: "ambiguous"; lines: number[]; count: number };

/** Start offsets of every non-overlapping occurrence of `needle` (non-empty) in `text`. */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  let at = text.indexOf(needle);
  while (at >= 0) {
    found.push(at);
    at = text.indexOf(needle, at + needle.length);
  }
  return found;
}

/** 1-based line numbers of ascending offsets in `text`, in one pass. */
export function lineNumbers(text: string, offsets: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let pos = 0;
  for (const offset of offsets) {
    for (;;) {
      const nl = text.indexOf("\n", pos);
      if (nl < 0 || nl >= offset) break;
      line++;
      pos = nl + 1;
    }
    lines.push(line);
  }
  return lines;
}

/** Replaces `old` (non-empty) by `replacement` in `text` per the edit_file rules. */
export function replaceText(
  text: string,
  old: string,
  replacement: string,
  replaceAll: boolean,
): ReplaceOutcome {
  const found = occurrences(text, old);
  if (found.length === 0) return { kind: "missing", closest: closestLines(text, old) };
  if (found.length > 1 && !replaceAll) {
    return { kind: "ambiguous", lines: lineNumbers(text, found.slice(0, 50)), count: found.length };
  }
  const parts: string[] = [];
  let from = 0;
  for (const at of found) {
    parts.push(text.slice(from, at), replacement);
    from = at + old.length;
  }
  parts.push(text.slice(from));
  return { kind: "ok", text: parts.join(""), replacements: found.length, offsets: found };
}
