/**
 * Signed keyset cursors: the last path a page emitted, with an HMAC-SHA-256 under a key made
 * fresh for each process, so a forged, altered or foreign cursor is refused.
 */

const MAX_CURSOR_LENGTH = 16 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

let keyPromise: Promise<CryptoKey> | null = null;

function key(): Promise<CryptoKey> {
  keyPromise ??= crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]) as Promise<CryptoKey>;
  return keyPromise;
}

function toBase64Url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    return Uint8Array.fromBase64(text, { alphabet: "base64url", lastChunkHandling: "loose" });
  } catch {
    return null;
  }
}

function signed(purpose: string, payload: Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(`${purpose}\0`);
  const data = new Uint8Array(head.length + payload.length);
  data.set(head);
  data.set(payload, head.length);
  return data;
}

/** Makes the per-process key now instead of on the first page. */
export async function warmCursorKey(): Promise<void> {
  await key();
}

/** A cursor for `position`, valid only for `purpose` in this process. */
export async function signCursor(purpose: string, position: string): Promise<string> {
  const payload = encoder.encode(position);
  const mac = await crypto.subtle.sign("HMAC", await key(), signed(purpose, payload));
  return `${toBase64Url(payload)}.${toBase64Url(new Uint8Array(mac))}`;
}

/** The position a cursor carries, or null when it was not made by signCursor for `purpose`. */
export async function verifyCursor(purpose: string, cursor: unknown): Promise<string | null> {
  if (typeof cursor !== "string" || cursor.length > MAX_CURSOR_LENGTH) return null;
  const dot = cursor.indexOf(".");
  if (dot < 0) return null;
  const payload = fromBase64Url(cursor.slice(0, dot));
  const mac = fromBase64Url(cursor.slice(dot + 1));
  if (payload === null || mac === null || mac.length !== 32) return null;
  const ok = await crypto.subtle.verify(
    "HMAC",
    await key(),
    mac as Uint8Array<ArrayBuffer>,
    signed(purpose, payload),
  );
  if (!ok) return null;
  try {
    return decoder.decode(payload);
  } catch {
    return null;
  }
}
