/**
 * C++ whose preprocessor conditionals cut through a construct, which the grammar cannot parse:
 * a constructor's initialiser list with one initialiser under `#if !defined(NDEBUG)` (leveldb's
 * env_windows.cc) turns the rest of the file into ERROR nodes. Rewritten before a second parse:
 * the conditional directive lines (`#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`, with
 * their continuation lines) are blanked, so every branch's code stands as if unconditioned. The
 * text keeps its length and line breaks, so every position stays. The caller keeps that tree only
 * when it has fewer errors (two branches that each open a body do not parse better).
 */

const DIRECTIVE = /^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b/;

/** The rewritten text, or null when it has no conditional directive. */
export function blankConditionals(text: string): string | null {
  const lines = text.split("\n");
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    if (!DIRECTIVE.test(lines[i])) continue;
    // The directive and the lines it continues with a backslash.
    for (let j = i; j < lines.length; j++) {
      const continued = /\\\r?$/.test(lines[j]);
      lines[j] = lines[j].replace(/[^\r]/g, " ");
      changed = true;
      if (!continued) {
        i = j;
        break;
      }
    }
  }
  return changed ? lines.join("\n") : null;
}
