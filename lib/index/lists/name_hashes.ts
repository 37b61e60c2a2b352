/**
 * The names a C/C++ file may define (lib/c_source/definable_names.ts), as the index keeps them:
 * a sorted list of 32-bit hashes of the names in ASCII lower case, one list per file. A query
 * for find_symbol asks whether a file's list holds the hash of its name; a file whose list does
 * not cannot define that name in any case, and is neither read nor parsed. A hash collision only
 * adds a file to parse, never drops one, so answers stay exact.
 */
import { eachDefinableName } from "../../c_source/definable_names.ts";
import { cFamilyExtensions } from "../../symbols/languages.ts";
import { sortedFind } from "./sorted_find.ts";

/** Larger files keep no list (the search's own verdict reads them in pieces). */
export const NAMED_MAX_BYTES = 1024 * 1024;

const EXTENSIONS: ReadonlySet<string> = new Set(cFamilyExtensions());
const utf8 = new TextDecoder("utf-8");

/** FNV-1a over the name's UTF-16 code units, ASCII letters in lower case. */
export function nameHash(name: string): number {
  return hashOf(name, 0, name.length);
}

/** nameHash of text[start, end), read in place. */
function hashOf(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 0;
}

/** True when a file of this path gets a list (a C/C++ extension, any case). */
export function isNamedPath(rel: string): boolean {
  const slash = rel.lastIndexOf("/");
  const dot = rel.lastIndexOf(".");
  return dot > slash + 1 && EXTENSIONS.has(rel.slice(dot).toLowerCase());
}

/** Reused between calls: the hashes of one file as they are found. */
let scratch = new Uint32Array(1 << 14);

/**
 * The sorted, distinct hashes of the names a file's text (its bytes, without a NUL) may define,
 * or null when the file keeps no list: not C/C++, or over NAMED_MAX_BYTES. The list is a view of
 * a buffer the next call reuses: copy it to keep it.
 */
export function definableHashes(rel: string, bytes: Uint8Array): Uint32Array | null {
  if (bytes.length > NAMED_MAX_BYTES || !isNamedPath(rel)) return null;
  const text = utf8.decode(bytes);
  let n = 0;
  eachDefinableName(text, (start, end) => {
    if (n === scratch.length) {
      const grown = new Uint32Array(scratch.length * 2);
      grown.set(scratch);
      scratch = grown;
    }
    scratch[n++] = hashOf(text, start, end);
  });
  return sortedDistinct(scratch.subarray(0, n));
}

/** Sorts `list` in place and moves its distinct values to its front: that prefix. */
function sortedDistinct(list: Uint32Array): Uint32Array {
  list.sort();
  let n = 0;
  for (let i = 0; i < list.length; i++) {
    if (n === 0 || list[n - 1] !== list[i]) list[n++] = list[i];
  }
  return list.subarray(0, n);
}

/** True when the sorted list holds `hash`. */
export function holdsHash(list: Uint32Array, hash: number): boolean {
  return sortedFind(list, list.length, hash) >= 0;
}

/** True when the list is sorted ascending without repeats (a stored list is checked so). */
export function isHashList(list: Uint32Array): boolean {
  for (let i = 1; i < list.length; i++) if (list[i - 1] >= list[i]) return false;
  return true;
}
