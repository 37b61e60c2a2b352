/**
 * Binary search in an ascending table of numbers: the trigram tables of the shards and of the
 * sealed ranges, and the names lists. `stride` is the words per row when the key is the first of
 * several (a shard's trigram table holds four per trigram).
 */
export function sortedFind(
  table: ArrayLike<number>,
  rows: number,
  key: number,
  stride = 1,
): number {
  let lo = 0;
  let hi = rows - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = table[mid * stride];
    if (value === key) return mid;
    if (value < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
