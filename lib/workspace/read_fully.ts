/** Reading an opened file into a buffer until it is full or the file ends. */

/**
 * Fills `buffer` from `file` (fewer bytes if the file ends first: it shrank meanwhile); returns
 * `buffer` itself when full, else the part that was read.
 */
export function readFullySync(file: Deno.FsFile, buffer: Uint8Array): Uint8Array {
  let done = 0;
  while (done < buffer.length) {
    const n = file.readSync(buffer.subarray(done));
    if (n === null || n === 0) break;
    done += n;
  }
  return done === buffer.length ? buffer : buffer.subarray(0, done);
}
