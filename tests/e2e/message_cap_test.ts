/**
 * No message the server writes reaches 6 MiB (docs/protocol.md, "Message sizes"): Claude Code
 * closes its stdio connection on a message of 8 MiB or more. An unlimited page (head_limit 0)
 * stops at an entry boundary under the cap and says so; the text block and structuredContent
 * both count, JSON-escaped, in UTF-8 bytes.
 */
import assert from "node:assert/strict";
import { started } from "./watchdog.ts";
import type { ServerProcess } from "./harness.ts";

const CAP = 6 * 1024 * 1024;
const NOTE = "(stopped at the 6 MiB message cap)";

/** Sends a tools/call and returns the answer line as written, with its UTF-8 size. */
async function rawCall(
  server: ServerProcess,
  id: number,
  name: string,
  args: Record<string, unknown>,
): Promise<{ bytes: number; result: Record<string, unknown> }> {
  await server.send(JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  }));
  const line = await server.take((l) => l.startsWith(`{"jsonrpc":"2.0","id":${id},`), 120_000);
  return { bytes: new TextEncoder().encode(line).length + 1, result: JSON.parse(line).result };
}

function lines(count: number, line: (i: number) => string): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(line(i));
  return out.join("\n") + "\n";
}

Deno.test("message cap: an unlimited grep over 14 MB of matches stops under 6 MiB and says so", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-cap-" });
  // Quotes and backslashes grow in JSON; the text block and structuredContent hold each line.
  for (let f = 0; f < 4; f++) {
    await Deno.writeTextFile(
      `${root}/file${f}.ts`,
      lines(80_000, (i) => `  return "value \\\\ ${f}-${i}"; // the "${i}th" case`),
    );
  }
  const server = await started(root, ["--no-index"]);
  try {
    const { bytes, result } = await rawCall(server, 2, "grep", {
      pattern: "return",
      output_mode: "content",
      head_limit: 0,
    });
    assert.ok(bytes <= CAP, `a message of ${bytes} bytes`);
    assert.ok(bytes > CAP * 0.8, `the page used the room it had: ${bytes} bytes`);
    const text = (result.content as { text: string }[])[0].text;
    const last = text.slice(text.lastIndexOf("\n") + 1);
    assert.match(
      last,
      /^\[\.\.\. \d+ more lines \(stopped at the 6 MiB message cap\); call again with offset=\d+\]$/,
    );
    const structured = result.structuredContent as Record<string, unknown>;
    assert.equal(structured.truncated, true);
    assert.equal(structured.total_matches, 320_000);
    const shown = (structured.lines as string[]).length;
    assert.equal(structured.next_offset, shown);
    // The cut is at an entry boundary: the last line shown is whole.
    assert.match(
      (structured.lines as string[])[shown - 1],
      /^file\d\.ts:\d+: {2}return ".*" case$/,
    );
    assert.ok(last.includes(`offset=${shown}]`));
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("message cap: bytes are counted in UTF-8, so text of CJK characters stops under 6 MiB too", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-cap-" });
  await Deno.writeTextFile(
    `${root}/wide.txt`,
    lines(120_000, (i) => `数据 ${i} 数据数据数据数据数据数据数据数据数据数据数据数据`),
  );
  const server = await started(root, ["--no-index"]);
  try {
    const grep = await rawCall(server, 2, "grep", {
      pattern: "数据",
      output_mode: "content",
      head_limit: 0,
    });
    assert.ok(grep.bytes <= CAP, `a grep message of ${grep.bytes} bytes`);
    assert.ok((grep.result.content as { text: string }[])[0].text.endsWith(
      `${NOTE}; call again with offset=${
        (grep.result.structuredContent as { next_offset: number }).next_offset
      }]`,
    ));
    const read = await rawCall(server, 3, "read_file", { path: "wide.txt", limit: 1_000_000 });
    assert.ok(read.bytes <= CAP, `a read_file message of ${read.bytes} bytes`);
    assert.notEqual(read.result.isError, true);
    const text = (read.result.content as { text: string }[])[0].text;
    assert.ok(text.includes(NOTE), text.slice(-200));
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("message cap: read_file with a limit past 6 MiB of text stops under the cap and names the next offset", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-cap-" });
  await Deno.writeTextFile(`${root}/big.txt`, lines(300_000, (i) => `line ${i} ${"x".repeat(40)}`));
  const server = await started(root, ["--no-index"]);
  try {
    const { bytes, result } = await rawCall(server, 2, "read_file", {
      path: "big.txt",
      limit: 300_000,
    });
    assert.ok(bytes <= CAP, `a message of ${bytes} bytes`);
    const structured = result.structuredContent as Record<string, unknown>;
    assert.equal(structured.truncated, true);
    const text = (result.content as { text: string }[])[0].text;
    assert.ok(
      text.endsWith(`${NOTE}; call again with offset=${structured.next_offset}]`),
      text.slice(-200),
    );
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});
