/**
 * Names git prints, as the workspace serves them (docs/workspace.md): a name that is not valid
 * UTF-8, or holds a control character (U+0000-U+001F, U+007F, U+2028, U+2029), cannot be named back
 * faithfully and could forge output lines, so it is left out.
 */
import { isSecretName } from "../workspace/names.ts";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The name, or null when it cannot be served. */
export function decodeName(bytes: Uint8Array): string | null {
  let name: string;
  try {
    name = strict.decode(bytes);
  } catch {
    return null;
  }
  return servableName(name) ? name : null;
}

export function servableName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x2028 || c === 0x2029) return false;
  }
  return name !== "";
}

/** True when any segment of root-relative `path` is a secret name (docs/workspace.md). */
export function isSecretPath(path: string): boolean {
  return path.split("/").some(isSecretName);
}

/** Splits `bytes` at NUL bytes (a trailing NUL ends the last field, it opens no new one). */
export function splitNul(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (;;) {
    const at = bytes.indexOf(0, from);
    if (at < 0) {
      if (from < bytes.length) out.push(bytes.subarray(from));
      return out;
    }
    out.push(bytes.subarray(from, at));
    from = at + 1;
  }
}

/** The text line shown instead of a secret file's content. */
export const SECRET_WITHHELD = "[secret file: content withheld]";
