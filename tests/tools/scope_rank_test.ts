/**
 * Name-based go_to_definition ranks its candidates by scope (docs/tools.md "go_to_definition"):
 * parameters and locals of the enclosing functions, `self.x =` assignments of the enclosing class,
 * the file's imports, the same package or folder, then the rest by path; the answer says how
 * many candidates there were and which ranks first. Python's own symtable confirms the
 * parameter and the local of the fixtures.
 */
import assert from "node:assert/strict";
import { goToDefinitionTool } from "../../lib/tools/go_to_definition.ts";
import { call, type Harness, text, toolTest } from "./helpers.ts";
import { Session } from "../../lib/tools/session.ts";

async function first(h: Harness, args: Record<string, unknown>): Promise<string[]> {
  if (String(args.path).endsWith(".py")) namesOnly(h);
  const result = await call(goToDefinitionTool, args, h);
  assert.equal(result.isError, undefined, text(result));
  assert.equal(result.structuredContent?.resolution, "names");
  return text(result).split("\n");
}

/**
 * Python has a type engine (pyright), which answers go_to_definition for .py files; the ranking
 * of the name-based answer is asked of a session whose engine table has none, as a language
 * without an engine (Go, Ruby...) is answered.
 */
function namesOnly(h: Harness): void {
  h.ctx.session.close();
  h.ctx.session = new Session({ engines: [] });
}

/** Python's symtable: the kind of `name` in function `fn` of `path` ("parameter", "local"). */
async function symtableKind(h: Harness, path: string, fn: string, name: string): Promise<string> {
  const script = `
import symtable, sys
path, fn, name = sys.argv[1:4]
def find(t):
    if t.get_name() == fn and t.get_type() == "function":
        return t
    for c in t.get_children():
        f = find(c)
        if f is not None:
            return f
t = find(symtable.symtable(open(path).read(), path, "exec"))
s = t.lookup(name)
print("parameter" if s.is_parameter() else "local" if s.is_local() else "other")
`;
  const out = await new Deno.Command("python3", {
    args: ["-c", script, `${h.root}/${path}`, fn, name],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

const PYTHON = {
  "aaa/scope.py": "def scope():\n    return 1\n\ndef items():\n    return []\n",
  "pkg/__init__.py": "",
  "pkg/handler.py": [
    "from pkg.render import draw",
    "",
    "class Handler:",
    "    items = None",
    "",
    "    def __init__(self):",
    "        self.items = []",
    "",
    "    def handle(self, scope):",
    "        total = 0",
    "        self.items.append(scope)",
    "        draw(total)",
    "        return scope.get(total)",
    "",
  ].join("\n"),
  "pkg/render.py": "def draw(n):\n    return n\n",
  "aaa/draw.py": "def draw(n):\n    return -n\n",
};

toolTest(
  "go_to_definition by name: a parameter of the enclosing function ranks first",
  PYTHON,
  async (h) => {
    assert.equal(await symtableKind(h, "pkg/handler.py", "handle", "scope"), "parameter");
    const lines = await first(h, { path: "pkg/handler.py", line: 13, name: "scope" });
    assert.equal(
      lines[0],
      'pkg/handler.py:9:22 is first of 2 candidates by name, ranked by scope: a parameter of "handle"',
    );
    assert.match(
      lines[1],
      /^pkg\/handler\.py:9:22: {5}def handle\(self, scope\): {2}\[parameter scope\]$/,
    );
    assert.match(lines[2], /^aaa\/scope\.py:1:5: def scope\(\):/);
  },
);

toolTest(
  "go_to_definition by name: a local of the enclosing function ranks first",
  PYTHON,
  async (h) => {
    assert.equal(await symtableKind(h, "pkg/handler.py", "handle", "total"), "local");
    const lines = await first(h, { path: "pkg/handler.py", line: 12, name: "total" });
    assert.equal(
      lines[0],
      'pkg/handler.py:10:9 is first of 1 candidate by name, ranked by scope: a local of "handle"',
    );
  },
);

toolTest(
  "go_to_definition by name: self.x ranks the enclosing class's assignment first",
  PYTHON,
  async (h) => {
    const lines = await first(h, { path: "pkg/handler.py", line: 11, name: "items" });
    assert.equal(
      lines[0],
      "pkg/handler.py:7:14 is first of 3 candidates by name, ranked by scope: assigned in the " +
        'enclosing class "Handler"',
    );
    // Then the class's own field, then the look-alike function elsewhere.
    assert.match(lines[2], /^pkg\/handler\.py:4:5: /);
    assert.match(lines[3], /^aaa\/scope\.py:4:5: def items\(\):/);
  },
);

toolTest(
  "go_to_definition by name: the target of the file's own import ranks first",
  PYTHON,
  async (h) => {
    const lines = await first(h, { path: "pkg/handler.py", line: 12, name: "draw" });
    assert.equal(
      lines[0],
      "pkg/render.py:1:5 is first of 2 candidates by name, ranked by scope: in a module this " +
        "file imports",
    );
    assert.match(lines[2], /^aaa\/draw\.py:1:5: /);
  },
);

const GO = {
  "go.mod": "module example.com/m\n\ngo 1.21\n",
  "aaa/box.go": "package aaa\n\ntype Box struct{}\n\nfunc (b *Box) Set(v int) {}\n",
  "app/box.go": "package app\n\ntype reqBox struct{}\n\nfunc (b *reqBox) Set(v int) {}\n",
  "app/terminal.go": [
    "package app",
    "",
    'import "example.com/m/util"',
    "",
    "type Terminal struct {",
    "\treqBox *reqBox",
    "\tevents *util.EventBox",
    "}",
    "",
    "func (t *Terminal) run() {",
    "\tt.reqBox.Set(1)",
    "\t_ = util.NewEventBox()",
    "\tb := makeBox()",
    "\tb.Set(2)",
    "}",
    "",
  ].join("\n"),
  "app/view.go": [
    "package app",
    "",
    "type view struct {",
    "\tbox *reqBox",
    "}",
    "",
    "func (v *view) Set(x int) {}",
    "",
    "func (v *view) draw() {",
    "\tv.box.Set(1)",
    "}",
    "",
  ].join("\n"),
  "other/box.go": "package other\n\ntype Other struct{}\n\nfunc (o *Other) Set(v int) {}\n",
  "util/eventbox.go":
    "package util\n\ntype EventBox struct{}\n\nfunc NewEventBox() *EventBox { return nil }\n",
  "aaa/new.go": "package aaa\n\nfunc NewEventBox() {}\n",
};

toolTest(
  "go_to_definition by name: a same-package method ranks before look-alikes",
  GO,
  async (h) => {
    // `b := makeBox()` shows no type: the candidates rank by where they live.
    const lines = await first(h, { path: "app/terminal.go", line: 14, name: "Set" });
    assert.equal(
      lines[0],
      "app/box.go:5:18 is first of 4 candidates by name, ranked by scope: in the same package",
    );
    assert.match(lines[2], /^app\/view\.go:7:16: /);
    assert.match(lines[3], /^aaa\/box\.go:5:15: /);
    assert.match(lines[4], /^other\/box\.go:5:17: /);
  },
);

toolTest(
  "go_to_definition by name: a member access ranks its owner's declared type first",
  GO,
  async (h) => {
    // `v.box.Set`: box is declared `*reqBox`, so reqBox's Set ranks before the file's view.Set.
    const lines = await first(h, { path: "app/view.go", line: 10, name: "Set" });
    assert.equal(
      lines[0],
      'app/box.go:5:18 is first of 4 candidates by name, ranked by scope: a member of "reqBox", ' +
        "the type of box",
    );
    assert.match(lines[2], /^app\/view\.go:7:16: /);
    // fzf's form: `t.reqBox.Set` with the field `reqBox *reqBox`.
    const fzf = await first(h, { path: "app/terminal.go", line: 11, name: "Set" });
    assert.match(fzf[0], /^app\/box\.go:5:18 is first of 4 candidates .*a member of "reqBox"/);
  },
);

toolTest(
  "go_to_definition by name: an imported Go package's function ranks first",
  GO,
  async (h) => {
    const lines = await first(h, { path: "app/terminal.go", line: 12, name: "NewEventBox" });
    assert.equal(
      lines[0],
      "util/eventbox.go:5:6 is first of 2 candidates by name, ranked by scope: in a module " +
        "this file imports",
    );
    assert.match(lines[2], /^aaa\/new\.go:3:6: /);
  },
);
