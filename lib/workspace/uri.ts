/** file:// URIs <-> absolute POSIX paths (no `node:url`: this module loads at start-up). */

/**
 * The file URL of an absolute path, percent-encoded as node's `pathToFileURL(path).href` does:
 * `%`, `\`, tab, CR, LF, `?` and `#` first, then the URL parser's path percent-encode set
 * (controls, space, `"`, `<`, `>`, backquote, braces and every non-ASCII character as UTF-8).
 */
export function pathToFileUri(path: string): string {
  let s = path;
  if (/[%\\\t\n\r?#]/.test(s)) {
    s = s.replace(/%/g, "%25").replace(/\\/g, "%5C").replace(/\t/g, "%09")
      .replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/\?/g, "%3F").replace(/#/g, "%23");
  }
  // Plain ASCII names need no encoding at all: skip the URL parser on the hot path.
  if (/^[A-Za-z0-9/._\-~!$&'()*+,;=:@%]*$/.test(s)) return `file://${s}`;
  return new URL(`file://${s}`).href;
}

/** Why a URI was refused: one phrase for the error message. */
export class UriError extends Error {}

/**
 * The absolute path named by `file:///abs` or `file://localhost/abs` (percent-decoded).
 * Throws UriError for any other scheme or host, a query or fragment, or bad percent-encoding.
 */
export function fileUriToPath(uri: string): string {
  if (!/^file:\/\//i.test(uri)) throw new UriError("only file:// URIs are accepted");
  const rest = uri.slice(7);
  const slash = rest.indexOf("/");
  if (slash < 0) throw new UriError("the URI has no path");
  const host = rest.slice(0, slash);
  if (host !== "" && host.toLowerCase() !== "localhost") {
    throw new UriError("only file:// URIs of this machine (no host, or localhost) are accepted");
  }
  const encoded = rest.slice(slash);
  if (encoded.includes("?") || encoded.includes("#")) {
    throw new UriError("file URIs with a query or fragment are not accepted");
  }
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new UriError("the URI's percent-encoding is not valid UTF-8");
  }
}

/** True when `input` looks like a URI (`scheme://`) rather than a path. */
export function looksLikeUri(input: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(input);
}
