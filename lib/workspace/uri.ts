/** file:// URIs <-> absolute POSIX paths (no `node:url`: this module loads at start-up). */

const KEEP = /^[A-Za-z0-9!$&'()*+,\-.:;=@_/]*$/;
const KEEP_CHAR = /[A-Za-z0-9!$&'()*+,\-.:;=@_/]/;
const utf8 = new TextEncoder();

/**
 * The file URL of an absolute (normalised) path, percent-encoded exactly as node's
 * `pathToFileURL(path).href`: every byte of the UTF-8 form is encoded except ASCII letters,
 * digits, `/` and ``!$&'()*+,-.:;=@_``.
 */
export function pathToFileUri(path: string): string {
  if (KEEP.test(path)) return `file://${path}`;
  let out = "file://";
  for (const ch of path) {
    if (ch.length === 1 && KEEP_CHAR.test(ch)) {
      out += ch;
      continue;
    }
    for (const byte of utf8.encode(ch)) {
      out += `%${byte < 16 ? "0" : ""}${byte.toString(16).toUpperCase()}`;
    }
  }
  return out;
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
