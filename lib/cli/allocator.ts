/**
 * glibc's malloc, tuned once at start: its mmap threshold is fixed at 1 MiB. Left to itself,
 * glibc raises the threshold each time a large block is freed (up to 32 MiB), after which the
 * server's large, short-lived buffers (file reads, index chunks, parse batches) are carved from
 * the heap instead of mapped, and the heap keeps tens of MiB it cannot give back; on the kernel
 * tree that was 30-40 MiB of the index build's peak. Fixing the threshold (any explicit value
 * turns the dynamic one off) keeps those buffers mapped, so they go back when freed.
 *
 * This is the only code that loads native code: libc by its absolute path, mallopt and nothing
 * else. The native-code permission is given up with it, whether or not the tuning applied (macOS
 * and Windows, a libc that is not glibc, a launch without --allow-ffi): at start, before anything
 * large; in a relay (main.ts) only if the session ends up running in that process (a relay that
 * reaches its daemon never tunes, since loading the native-code support costs it about 2 MiB, and
 * gives the permission up on connecting).
 */

/** mallopt's parameter number for the mmap threshold (glibc's malloc.h). */
const M_MMAP_THRESHOLD = -3;
const THRESHOLD_BYTES = 1024 * 1024;

/** Where glibc's libc lives on the Linux distributions we know (Debian and Ubuntu first). */
const LIBC_PATHS = [
  "/lib/x86_64-linux-gnu/libc.so.6",
  "/lib/aarch64-linux-gnu/libc.so.6",
  "/usr/lib/x86_64-linux-gnu/libc.so.6",
  "/usr/lib/aarch64-linux-gnu/libc.so.6",
  "/lib64/libc.so.6",
  "/usr/lib64/libc.so.6",
  "/usr/lib/libc.so.6",
];

/**
 * Fixes glibc's mmap threshold where it can, then revokes the native-code permission for good
 * (workers started later inherit the revocation). Returns what was done, for the debug log.
 */
export function tuneAllocator(): string {
  try {
    return Deno.build.os === "linux"
      ? fixThreshold()
      : `allocator: left as it is on ${Deno.build.os}`;
  } finally {
    Deno.permissions.revokeSync({ name: "ffi" });
  }
}

function fixThreshold(): string {
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    return "allocator: left as it is (launched without --allow-ffi)";
  }
  for (const path of LIBC_PATHS) {
    let lib: Deno.DynamicLibrary<{ mallopt: { parameters: ["i32", "i32"]; result: "i32" } }>;
    try {
      lib = Deno.dlopen(path, { mallopt: { parameters: ["i32", "i32"], result: "i32" } });
    } catch {
      continue; // not there, or not a libc with mallopt (musl has none)
    }
    try {
      const ok = lib.symbols.mallopt(M_MMAP_THRESHOLD, THRESHOLD_BYTES) === 1;
      return ok
        ? `allocator: mmap threshold fixed at ${THRESHOLD_BYTES} bytes (${path})`
        : `allocator: left as it is (mallopt refused the mmap threshold, ${path})`;
    } finally {
      lib.close();
    }
  }
  return "allocator: left as it is (no glibc found)";
}
