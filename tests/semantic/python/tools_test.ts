/**
 * The Python engine through the real server's tools (the engine table routes `.py` files to
 * pyright): go_to_definition (a venv package, a builtin in typeshed), position-based
 * find_references, rename_symbol as a dry run and written atomically with --write (then asked
 * again: the new name's references are the old name's), and diagnostics with a syntax error by
 * line; a fake `python` first on the server's PATH and the venv's interpreter are never run, and
 * no outside or secret token appears.
 */
import assert from "node:assert/strict";
import { ServerProcess } from "../../e2e/harness.ts";
import { makePythonProject, OUTSIDE_TOKEN, SECRET_TOKEN } from "./fixture.ts";

const INIT = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "python-semantic-test", version: "1" },
};

interface Called {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("python tools: definitions, references, rename (dry run and --write) and diagnostics through the server", async () => {
  const fixture = await makePythonProject();
  const server = await ServerProcess.spawn(["--root", fixture.root, "--no-git", "--write"], {
    env: { PATH: `${fixture.fakeBin}:${Deno.env.get("PATH") ?? ""}` },
  });
  let next = 1;
  const texts: string[] = [];
  const call = async (name: string, args: Record<string, unknown>): Promise<Called> => {
    const id = next++;
    await server.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: args },
      }),
    );
    const answer = JSON.parse(await server.readUntil((l) => JSON.parse(l).id === id, 180_000));
    const result = answer.result;
    const called = {
      isError: result.isError === true,
      text: result.content.map((c: { text: string }) => c.text).join("\n"),
      structured: result.structuredContent ?? {},
    };
    texts.push(JSON.stringify(called));
    return called;
  };
  try {
    await server.request(0, "initialize", INIT);
    await server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');

    const vendor = await call("go_to_definition", { path: "main.py", line: 8, name: "vendor_fn" });
    assert.equal(vendor.isError, false, vendor.text);
    assert.equal(vendor.structured.engine, "pyright");
    assert.equal(vendor.structured.resolution, "types");
    const [found] = vendor.structured.definitions as Array<Record<string, unknown>>;
    assert.equal(found.path, "venv/lib/python3.12/site-packages/vendorpkg/__init__.py");
    assert.equal(found.line, 1);

    // The type at the position comes with the declarations; target "type" gives its class.
    const made = await call("go_to_definition", { path: "main.py", line: 9, name: "make_shape" });
    assert.equal(
      made.structured.type,
      '(function) def make_shape(\n    side: float,\n    *,\n    label: str = ""\n) -> Shape',
      made.text,
    );
    const shapeType = await call("go_to_definition", {
      path: "src/shop/orders.py",
      line: 8,
      name: "shape",
      target: "type",
    });
    assert.equal(shapeType.isError, false, shapeType.text);
    const [shapeClass] = shapeType.structured.definitions as Array<Record<string, unknown>>;
    assert.equal(`${shapeClass.path}:${shapeClass.line}`, "src/shop/models.py:10");
    const impl = await call("go_to_definition", {
      path: "main.py",
      line: 9,
      name: "make_shape",
      target: "implementations",
    });
    // A function has no subclasses or overrides: an empty answer, not a refusal.
    assert.equal(impl.isError, false, impl.text);
    assert.match(impl.text, /^No implementations found for "make_shape" on line 9 of "main.py"/);

    const builtin = await call("go_to_definition", { path: "main.py", line: 9, name: "len" });
    const [len] = builtin.structured.definitions as Array<Record<string, unknown>>;
    assert.equal(len.path, null);
    assert.equal(len.external, "stdlib/builtins.pyi");

    const refs = await call("find_references", {
      path: "src/shop/models.py",
      line: 26,
      name: "make_shape",
    });
    assert.equal(refs.structured.resolution, "types");
    assert.equal(refs.structured.engine, "pyright");
    const lines = refs.structured.lines as string[];
    const places = lines.map((l) => l.split(":").slice(0, 3).join(":"));
    // The `__all__` entry is pyright's too; the declaration alone is marked.
    assert.deepEqual(places, [
      "main.py:5:18",
      "main.py:9:7",
      "src/shop/__init__.py:1:22",
      "src/shop/__init__.py:3:35",
      "src/shop/bom.py:1:25",
      "src/shop/bom.py:3:13",
      "src/shop/models.py:26:5",
      "src/shop/orders.py:2:25",
      "src/shop/orders.py:8:13",
    ]);
    assert.deepEqual(lines.filter((l) => l.endsWith("[definition]")).length, 1, refs.text);
    assert.ok(lines[6].endsWith("[definition]"), refs.text);

    const dry = await call("rename_symbol", {
      path: "src/shop/models.py",
      line: 26,
      name: "make_shape",
      new_name: "build_shape",
      dry_run: true,
    });
    assert.equal(dry.isError, false, dry.text);
    assert.equal(dry.structured.applied, false);
    const dryFiles = (dry.structured.files as Array<{ path: string }>).map((f) => f.path);
    assert.ok(dryFiles.includes("main.py") && dryFiles.includes("src/shop/orders.py"), dry.text);
    assert.equal(Deno.readTextFileSync(`${fixture.root}/main.py`).includes("build_shape"), false);

    const written = await call("rename_symbol", {
      path: "src/shop/models.py",
      line: 26,
      name: "make_shape",
      new_name: "build_shape",
      dry_run: false,
    });
    assert.equal(written.isError, false, written.text);
    assert.equal(written.structured.applied, true);
    for (const path of dryFiles) {
      const text = Deno.readTextFileSync(`${fixture.root}/${path}`);
      assert.ok(text.includes("build_shape") && !/\bmake_shape\b/.test(text), path);
    }
    // The engine sees the written files: the new name has the old name's references.
    const after = await call("find_references", {
      path: "src/shop/models.py",
      line: 26,
      name: "build_shape",
    });
    assert.equal((after.structured.lines as string[]).length, lines.length, after.text);

    const broken = await call("diagnostics", { path: "src/shop/broken.py" });
    assert.equal(broken.isError, false, broken.text);
    const list = broken.structured.diagnostics as Array<Record<string, unknown>>;
    assert.ok(
      list.some((d) => d.code === "syntax" && d.line === 4 && d.source === "pyright"),
      broken.text,
    );

    // The whole package: every Python file checked, no time bound unless the caller sets one;
    // a limit of 0 s on a new check stops before the first file, says so, and offers no next
    // page.
    const whole = await call("diagnostics", { path: "src/shop", head_limit: 0 });
    assert.equal(whole.structured.partial, undefined, whole.text);
    assert.ok(
      (whole.structured.diagnostics as Array<Record<string, unknown>>).some((d) =>
        d.path === "src/shop/broken.py" && d.code === "syntax"
      ),
      whole.text,
    );
    // Asked again, the complete answer is kept and paged; once a file changed it is not, and a
    // limit of 0 s stops before the first file of the new check.
    const again = await call("diagnostics", { path: "src/shop", head_limit: 0, timeout_s: 0 });
    assert.deepEqual(again.structured, whole.structured);
    Deno.writeTextFileSync(
      `${fixture.root}/src/shop/broken.py`,
      "def fine() -> int:\n    return 2\n\ndef broken(:\n    pass\n",
    );
    const cut = await call("diagnostics", { path: "src/shop", head_limit: 1, timeout_s: 0 });
    assert.equal(cut.structured.partial, true, cut.text);
    assert.match(String(cut.structured.reason), /time limit/);
    assert.equal(cut.structured.next_offset, undefined);

    const all = texts.join("\n");
    assert.ok(!all.includes(OUTSIDE_TOKEN) && !all.includes(SECRET_TOKEN));
    for (const marker of fixture.markers) {
      assert.ok(!exists(marker), `an interpreter ran: ${marker}`);
    }
  } finally {
    await server.close();
    await fixture.dispose();
  }
});
