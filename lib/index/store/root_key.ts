/**
 * The key of a root's folder in the cache folder (lib/index/store/index_store.ts keeps its stored
 * index there), and whether a stored index is there at all: small, so that the main thread can
 * ask before it starts the index worker.
 */

export const MANIFEST = "manifest.json";
/** The stored format's version (part of the key). */
export const FORMAT = 1;

export interface RootIdentity {
  root: string;
  dev: number;
  ino: number;
  noIgnore: boolean;
  allowSecrets: boolean;
}

/** The per-root key: hex of SHA-256 over the root's identity and flags. */
export async function rootKey(id: RootIdentity): Promise<string> {
  const text = JSON.stringify([FORMAT, id.root, id.dev, id.ino, id.noIgnore, id.allowSecrets]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("").slice(
    0,
    40,
  );
}

/**
 * The identity of the served root `root` (a real path) and its key, or null when it cannot be
 * identified (gone).
 */
export async function rootIdentity(
  root: string,
  flags: { noIgnore: boolean; allowSecrets: boolean },
): Promise<{ identity: RootIdentity; key: string } | null> {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(root);
  } catch {
    return null;
  }
  const identity = {
    root,
    dev: info.dev,
    ino: info.ino ?? 0,
    noIgnore: flags.noIgnore,
    allowSecrets: flags.allowSecrets,
  };
  return { identity, key: await rootKey(identity) };
}

/**
 * Whether the cache folder `dir` holds a manifest for the root `root` (a real path): a stored
 * index to open, or one that will be found broken. False means the first session on the root.
 */
export async function hasStoredIndex(
  dir: string,
  root: string,
  flags: { noIgnore: boolean; allowSecrets: boolean },
): Promise<boolean> {
  const id = await rootIdentity(root, flags);
  if (id === null) return false;
  try {
    Deno.lstatSync(`${dir}/${id.key}/${MANIFEST}`);
    return true;
  } catch {
    return false;
  }
}
