/** --tools LIST (README, "Choosing the tools"): names and groups chosen at start. */
import assert from "node:assert/strict";
import { parseArgs } from "../../lib/cli/args.ts";
import { selectTools, TOOL_GROUPS, TOOL_NAMES } from "../../lib/cli/tool_selection.ts";
import { TOOL_TABLE, toolsFor } from "../../lib/tools/index.ts";
import { started } from "../e2e/watchdog.ts";
import { MAIN, serverFlags, spawnEnv } from "../e2e/harness.ts";

Deno.test("--tools: the names it knows are exactly the tool table's", () => {
  const table = [...new Set(TOOL_TABLE.map((entry) => entry.tool.name))].sort();
  assert.deepEqual(TOOL_NAMES, table);
  // Every tool is in exactly one group.
  assert.equal(Object.values(TOOL_GROUPS).flat().length, table.length);
});

Deno.test("--tools: names and groups mix; the session offers only those", () => {
  const parsed = parseArgs(["--tools", "search,git_log,symbols"]);
  assert.equal(parsed.kind, "run");
  const chosen = parsed.kind === "run" ? parsed.config.tools : null;
  assert.deepEqual([...chosen!].sort(), [
    "find_references",
    "find_symbol",
    "git_log",
    "glob",
    "grep",
    "outline",
  ]);
  const names = toolsFor({ write: true, git: true, selected: chosen }).map((t) => t.name).sort();
  assert.deepEqual(names, [...chosen!].sort());
  // Without --tools, every tool the flags allow.
  assert.equal(toolsFor({ write: true, git: true }).length, TOOL_NAMES.length);
});

Deno.test("--tools: an unknown name or an empty list is a usage error naming the valid ones", () => {
  const bad = parseArgs(["--tools=search,Read"]);
  assert.equal(bad.kind, "error");
  assert.match(
    bad.kind === "error" ? bad.message : "",
    /^--tools: unknown tool or group "Read"; use names \(delete_file, diagnostics, .*\) or groups \(search, read, symbols, semantic, git, edit\)$/,
  );
  assert.equal(parseArgs(["--tools", ","]).kind, "error");
  assert.equal(parseArgs(["--tools"]).kind, "error");
  assert.deepEqual(selectTools("edit"), { names: new Set(TOOL_GROUPS.edit) });
});

Deno.test("--tools: the process exits 2 with the usage on stderr for an unknown name", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...(await serverFlags()), MAIN, "--tools", "search,bash"],
    env: spawnEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.equal(new TextDecoder().decode(out.stdout), "");
  const stderr = new TextDecoder().decode(out.stderr);
  assert.match(stderr, /^shipcode-mcp: --tools: unknown tool or group "bash"; /);
  assert.match(stderr, /Usage: shipcode-mcp \[options\]/);
  assert.match(stderr, /--tools LIST/);
});

Deno.test("--tools: an unselected tool is not listed and a call to it is Unknown tool", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-tools-" });
  await Deno.writeTextFile(`${root}/a.ts`, "export const a = 1;\n");
  const server = await started(root, ["--tools", "search,symbols"]);
  try {
    const list = await server.request(2, "tools/list");
    const names = (list.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    assert.deepEqual(names, ["find_references", "find_symbol", "glob", "grep", "outline"]);
    const refused = await server.request(3, "tools/call", {
      name: "read_file",
      arguments: { path: "a.ts" },
    });
    assert.deepEqual(refused.error, { code: -32602, message: "Unknown tool: read_file" });
    const grep = await server.request(4, "tools/call", {
      name: "grep",
      arguments: { pattern: "a" },
    });
    assert.equal((grep.result as { content: { text: string }[] }).content[0].text, "a.ts");
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});
