/**
 * One huge file in the root (issue 8, defect 5): large files are streamed (binary decided on the
 * first chunk), memory stays bounded, and the regex timeout times the regex only, so a slow read
 * or a big file never ends a search with "simplify the pattern" (docs/limits.md).
 */
import assert from "node:assert/strict";
import { call, exitsOnEof, started, whilePinged } from "./watchdog.ts";

async function rssMib(pid: number): Promise<number> {
  const out = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(pid)] }).output();
  return Number(new TextDecoder().decode(out.stdout).trim()) / 1024;
}

/** Runs `work` while sampling the server's resident memory; returns both. */
async function sampled<T>(pid: number, work: Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, await rssMib(pid));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    return { value: await work, peak };
  } finally {
    done = true;
    await sampler;
  }
}

Deno.test("large files: a 10 GB sparse file is skipped as binary on its first chunk, memory bounded", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-large-" });
  await Deno.writeTextFile(`${root}/a.txt`, "needle\n");
  const huge = await Deno.open(`${root}/huge.dat`, { write: true, create: true });
  await huge.truncate(10 * 1024 ** 3);
  huge.close();
  const server = await started(root);
  try {
    for (const mode of ["files_with_matches", "count", "content"]) {
      const { value, peak } = await sampled(
        server.child.pid,
        whilePinged(server, call(server, 2, "grep", { pattern: "needle", output_mode: mode })),
      );
      assert.equal(value.isError, undefined, value.content[0].text);
      assert.match(value.content[0].text, /^a\.txt/);
      // Read whole, the file alone is 10 GiB (0.3 to 1.6 GB peak before it failed).
      assert.ok(peak < 400, `peak RSS ${peak.toFixed(0)} MiB in ${mode} mode`);
    }
    await exitsOnEof(server);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("large files: head_limit 1 over 16 MB of matches, and -F over a 100 MB line, are no regex timeout", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-large-" });
  await Deno.writeTextFile(`${root}/many.txt`, "a\n".repeat(8 * 1024 * 1024));
  await Deno.writeTextFile(`${root}/line.txt`, "x".repeat(100 * 1024 * 1024) + "needle\n");
  // The default regex timeout (2 s): reading, decoding and scanning either file whole took longer.
  const server = await started(root);
  try {
    const first = await whilePinged(
      server,
      call(server, 2, "grep", { pattern: "a", output_mode: "content", head_limit: 1 }),
    );
    assert.equal(first.isError, undefined, first.content[0].text);
    const structured = first.structuredContent as { lines: string[]; total_matches: number };
    assert.deepEqual(structured.lines, ["many.txt:1:a"]);
    assert.equal(structured.total_matches, 8 * 1024 * 1024);
    const literal = await whilePinged(
      server,
      call(server, 3, "grep", { pattern: "needle", fixed_strings: true, output_mode: "count" }),
    );
    assert.equal(literal.isError, undefined, literal.content[0].text);
    assert.deepEqual((literal.structuredContent as { counts: string[] }).counts, ["line.txt:1"]);
    await exitsOnEof(server);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});
