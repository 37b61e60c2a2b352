/**
 * How much of a file a call may hold (docs/tools.md, "How much of a file a call holds"), through
 * the real process, with the peak resident memory (VmHWM) read from /proc from outside: a file
 * named alone in `path` is bounded like a walked one, context lines never hold a whole file, and
 * a multiline search over a file past the bound is an isError naming it.
 */
import assert from "node:assert/strict";
import { peakKiB } from "../helpers/proc.ts";
import { call, exitsOnEof, started, whilePinged } from "./watchdog.ts";

const MIB = 1024 * 1024;

/** The process's peak so far in MiB (null without /proc: the bound is then not checked). */
async function peakMib(pid: number): Promise<number | null> {
  const kib = await peakKiB(pid);
  return kib === null ? null : kib / 1024;
}

function assertBelow(peak: number | null, mib: number, what: string): void {
  if (peak === null) return;
  assert.ok(peak < mib, `peak RSS ${peak.toFixed(0)} MiB after ${what} (bound ${mib} MiB)`);
}

Deno.test("memory bounds: grep with path naming a 10 GB sparse file holds one chunk in every mode", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-bounds-" });
  const huge = await Deno.open(`${root}/huge.dat`, { write: true, create: true });
  await huge.truncate(10 * 1024 ** 3);
  huge.close();
  const server = await started(root, ["--no-index"]);
  try {
    const cases: Record<string, unknown>[] = [
      { output_mode: "content" },
      { output_mode: "content", "-C": 3, head_limit: 0 },
      { output_mode: "count" },
      { output_mode: "files_with_matches" },
      { output_mode: "content", multiline: true },
    ];
    let id = 2;
    for (const extra of cases) {
      const result = await whilePinged(
        server,
        call(server, id++, "grep", { pattern: "needle", path: "huge.dat", ...extra }),
      );
      assert.equal(result.isError, undefined, result.content[0].text);
      assert.equal(
        result.content[0].text,
        'Skipped "huge.dat": it is a binary file (a NUL byte at offset 0), and grep searches text files only',
      );
      // Held whole, the file alone is 10 GiB (the wave-2 server passed 3 GiB before failing).
      assertBelow(await peakMib(server.child.pid), 400, `grep ${JSON.stringify(extra)}`);
    }
    await exitsOnEof(server);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("memory bounds: context lines over a 140 MiB file hold a window, and multiline over it is an isError naming the limit", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-bounds-" });
  const file = await Deno.open(`${root}/big.log`, { write: true, create: true });
  const block = new TextEncoder().encode(
    Array.from({ length: 16384 }, (_, i) => `line ${String(i).padStart(58, "0")}\n`).join(""),
  );
  assert.equal(block.length, MIB);
  for (let i = 0; i < 140; i++) {
    await file.write(block);
    if (i === 70) await file.write(new TextEncoder().encode("the needle is here\n"));
  }
  file.close();
  const server = await started(root, ["--no-index"]);
  try {
    const context = await whilePinged(
      server,
      call(server, 2, "grep", {
        pattern: "needle",
        path: "big.log",
        output_mode: "content",
        "-C": 2,
        head_limit: 0,
      }),
    );
    assert.equal(context.isError, undefined, context.content[0].text);
    const line = 71 * 16384 + 1;
    assert.deepEqual((context.structuredContent as { lines: string[] }).lines, [
      `big.log-${line - 2}-line ${"0".repeat(53)}16382`,
      `big.log-${line - 1}-line ${"0".repeat(53)}16383`,
      `big.log:${line}:the needle is here`,
      `big.log-${line + 1}-line ${"0".repeat(58)}`,
      `big.log-${line + 2}-line ${"0".repeat(57)}1`,
    ]);
    // Read whole (wave 2 held files up to 256 MiB for context lines), the bytes and their text
    // alone are 280 MiB on top of the process.
    assertBelow(await peakMib(server.child.pid), 300, "a context grep");
    const multiline = await whilePinged(
      server,
      call(server, 3, "grep", { pattern: "needle.is", path: "big.log", multiline: true }),
    );
    assert.equal(multiline.isError, true);
    assert.equal(
      multiline.content[0].text,
      'Cannot search "big.log" with a multiline pattern: it is 140 MiB and a multiline search holds the whole file, at most 128 MiB; search it without multiline',
    );
    const walked = await whilePinged(
      server,
      call(server, 4, "grep", { pattern: "needle.is", multiline: true }),
    );
    // Never silent: the walk's answer names the file it could not hold.
    assert.equal(
      walked.content[0].text,
      'No matches found\nNot searched: 1 file ("big.log"): a multiline search holds the whole ' +
        "file, at most 128 MiB",
    );
    assertBelow(await peakMib(server.child.pid), 300, "multiline greps");
    await exitsOnEof(server);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});
