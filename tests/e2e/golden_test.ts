/**
 * Golden transcripts (tests/testdata/golden/*.txt): a prose header (`#` lines) saying what the
 * transcript pins, the client lines (`> `) and the exact server lines expected (`< `), run against
 * the real process serving a small fixture tree. `{ROOT}` stands for the fixture's real path.
 * `deno task golden:update` rewrites the `< ` lines from the current server, for review.
 */

import assert from "node:assert/strict";
import { ServerProcess } from "./harness.ts";
import { writeTree } from "../helpers/fixture.ts";

const DIR = new URL("../testdata/golden/", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";
/** Methods answered after I/O: the runner waits for their answer before the next line. */
const ASYNC = new Set(["tools/call", "resources/list", "resources/read"]);

async function fixture(): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "shipcode-golden-" }));
  await writeTree(root, {
    "src/main.ts": 'export function main(): string {\n  return "hello";\n}\n',
    "README.md": "# Fixture\n\nA tree for golden transcripts.\n",
    ".env": "TOKEN=do-not-serve\n",
    "logo.bin": new Uint8Array([0, 1, 2, 255]),
  });
  await Deno.utime(`${root}/src/main.ts`, 1_700_000_000, 1_700_000_000);
  await Deno.utime(`${root}/README.md`, 1_700_000_100, 1_700_000_100);
  await Deno.utime(`${root}/logo.bin`, 1_700_000_200, 1_700_000_200);
  return root;
}

interface Transcript {
  header: string[];
  client: string[];
  server: string[];
}

function parse(text: string): Transcript {
  const t: Transcript = { header: [], client: [], server: [] };
  for (const line of text.split("\n")) {
    if (line.startsWith("> ")) t.client.push(line.slice(2));
    else if (line.startsWith("< ")) t.server.push(line.slice(2));
    else if (line.startsWith("#")) t.header.push(line);
  }
  return t;
}

async function play(client: string[], root: string): Promise<string[]> {
  const server = await ServerProcess.spawn(["--root", root]);
  const out: string[] = [];
  try {
    for (const [n, raw] of client.entries()) {
      const line = raw.replaceAll("{ROOT}", root);
      await server.send(line);
      let message: Record<string, unknown> | undefined;
      try {
        message = JSON.parse(line);
      } catch {
        message = undefined;
      }
      const id = message?.id;
      const waitForOwn = typeof message === "object" && message !== null &&
        typeof message.method === "string" &&
        ASYNC.has(message.method) && (typeof id === "string" || Number.isInteger(id));
      const target = waitForOwn ? JSON.stringify(id) : JSON.stringify(`~barrier~${n}`);
      if (!waitForOwn) await server.send(`{"jsonrpc":"2.0","id":${target},"method":"ping"}`);
      for (;;) {
        const [answer] = await server.read(1);
        const answerId = JSON.stringify(JSON.parse(answer).id);
        if (answerId === target && !waitForOwn) break;
        out.push(answer.replaceAll(root, "{ROOT}"));
        if (answerId === target) break;
      }
    }
    const end = await server.close();
    assert.equal(end.code, 0);
    out.push(...end.lines.map((l) => l.replaceAll(root, "{ROOT}")));
  } finally {
    await server.kill();
  }
  return out;
}

for (
  const entry of [...Deno.readDirSync(DIR)].filter((e) => e.name.endsWith(".txt")).sort((a, b) =>
    a.name < b.name ? -1 : 1
  )
) {
  Deno.test(`golden: ${entry.name}`, async () => {
    const path = new URL(entry.name, DIR);
    const transcript = parse(await Deno.readTextFile(path));
    assert.ok(transcript.header.length > 0, `${entry.name} needs a # header saying what it pins`);
    const root = await fixture();
    try {
      const got = await play(transcript.client, root);
      if (UPDATE) {
        const text = [
          ...transcript.header,
          ...transcript.client.map((l) => `> ${l}`),
          ...got.map((l) => `< ${l}`),
        ].join("\n") + "\n";
        await Deno.writeTextFile(path, text);
      } else {
        assert.deepEqual(got, transcript.server);
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}
