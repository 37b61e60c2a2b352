/**
 * Why an `old_string` that was not found missed, when the reason is one a model cannot see
 * (docs/tools.md "edit_file"): read_file's line-number prefix copied along with the text, or line
 * endings that differ from the file's (read_file hides the CR of a CRLF line, so a model copies
 * LF text from a file that mixes both). The answer names the cause and the exact text to send.
 */

/** read_file's prefix: the line number right-aligned in six columns, then a tab. */
const PREFIX = /^ *\d+\t/;
/** The exact text quoted in an answer is cut past this many characters. */
const MAX_QUOTE = 2_000;

function quote(text: string): string {
  const json = JSON.stringify(text);
  return json.length > MAX_QUOTE ? `${json.slice(0, MAX_QUOTE)}..." (cut)` : json;
}

/** `old` without read_file's prefix on each line, or null when its lines do not all carry it. */
function withoutPrefix(old: string): string | null {
  const lines = old.split("\n");
  let carried = 0;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = PREFIX.exec(lines[i]);
    if (m === null) {
      // A last empty piece (old ends with a newline) carries no prefix.
      if (i === lines.length - 1 && lines[i] === "") {
        out.push("");
        continue;
      }
      return null;
    }
    carried++;
    out.push(lines[i].slice(m[0].length));
  }
  return carried > 0 ? out.join("\n") : null;
}

/** Where `needle` occurs in `text` when both have CRLF read as LF: the text's own span, or null. */
function spanIgnoringEndings(text: string, needle: string): string | null {
  const flat = text.replaceAll("\r\n", "\n");
  const want = needle.replaceAll("\r\n", "\n");
  if (want === "") return null;
  const at = flat.indexOf(want);
  if (at < 0) return null;
  // Map the offsets of the flat text back onto the text (each dropped CR shifts by one).
  let raw = 0;
  let flatPos = 0;
  let start = -1;
  while (flatPos <= flat.length) {
    if (flatPos === at && start < 0) start = raw;
    if (flatPos === at + want.length) break;
    if (text.charCodeAt(raw) === 13 && text.charCodeAt(raw + 1) === 10) raw++;
    raw++;
    flatPos++;
  }
  return text.slice(start, raw);
}

/**
 * The sentence that explains a miss of `old` in `text` (the file's plain text), or null when
 * neither a line-number prefix nor line endings explain it. `rel` names the file.
 */
export function explainMiss(text: string, old: string, rel: string): string | null {
  const bare = withoutPrefix(old);
  if (bare !== null) {
    const first = PREFIX.exec(old)![0];
    const found = text.includes(bare) || spanIgnoringEndings(text, bare) !== null;
    return `old_string starts its lines with read_file's line-number prefix (${
      quote(first)
    }); send only the text after each line's tab${
      found ? `, here ${quote(spanIgnoringEndings(text, bare) ?? bare)}` : ""
    }`;
  }
  const mixed = text.includes("\r\n") || old.includes("\r");
  if (!mixed) return null;
  const exact = spanIgnoringEndings(text, old);
  if (exact === null || exact === old) return null;
  const crlf = text.includes("\r\n");
  const lf = /(^|[^\r])\n/.test(text);
  const which = crlf && lf ? "mixes CRLF and LF line endings" : crlf ? "uses CRLF" : "uses LF";
  return `old_string differs from ${rel} only in line endings (the file ${which}, and read_file ` +
    `does not show the CR); send old_string exactly as ${quote(exact)}`;
}
