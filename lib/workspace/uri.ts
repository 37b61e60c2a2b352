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

/** Characters a URI may hold as they are (RFC 3986: unreserved, reserved, and `%` of escapes). */
const URI_CHAR = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

/**
 * The URI as sent when it is a valid URI, else with every character a URI cannot hold (spaces,
 * non-ASCII letters of an IRI, a `%` not followed by two hex digits) percent-encoded as UTF-8:
 * what `contents[].uri` echoes, so that an answer is a valid URI even when the request was lax.
 */
export function echoableUri(uri: string): string {
  let out = "";
  let changed = false;
  for (let i = 0; i < uri.length; i++) {
    const ch = uri[i];
    if (ch === "%" && /^[0-9A-Fa-f]{2}$/.test(uri.slice(i + 1, i + 3))) {
      out += ch;
      continue;
    }
    if (ch !== "%" && URI_CHAR.test(ch)) {
      out += ch;
      continue;
    }
    const code = uri.codePointAt(i)!;
    const char = String.fromCodePoint(code);
    if (code > 0xffff) i++;
    // A lone surrogate cannot be encoded as UTF-8: U+FFFD stands for it.
    const bytes = new TextEncoder().encode(char);
    for (const b of bytes) out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    changed = true;
  }
  return changed ? out : uri;
}
