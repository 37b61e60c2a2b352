/**
 * find_symbol with qualified names in each language's own form (docs/tools.md "find_symbol"),
 * checked against the languages' own readings: universal-ctags' scopes (Go packages and
 * receivers, Java packages and classes, C++ namespaces, Rust modules) and Python's `ast` with
 * the package-root rule (the highest folder of `__init__.py` packages, or `src/`). Needs
 * universal-ctags and python3 (.ci/run installs them).
 */
import assert from "node:assert/strict";
import { findSymbolTool } from "../../lib/tools/find_symbol.ts";
import { call, type Harness, text, toolTest } from "./helpers.ts";

const TREE: Record<string, string> = {
  "fastapi/__init__.py": "from .routing import APIRouter as APIRouter\n",
  "fastapi/routing.py": [
    '_FASTAPI_SCOPE_KEY = "fastapi_astack"',
    "",
    "class APIRoute:",
    "    def matches(self, scope):",
    "        return scope",
    "",
    "class APIRouter:",
    "    def add_api_route(self, path):",
    "        return path",
    "",
  ].join("\n"),
  "src/requests/__init__.py": "",
  "src/requests/sessions.py": "class Session:\n    def send(self, request):\n        return 1\n",
  "src/requests/adapters.py":
    "class HTTPAdapter:\n    def send(self, request):\n        return 2\n",
  "src/requests/models.py": "class Request:\n    def prepare(self):\n        return 3\n",
  "scripts/tool.py": "def main():\n    return 0\n",
  "tests/test_routing.py": "class TestAPIRouter:\n    def add_api_route(self):\n        pass\n",
  "fz/src/tui/tui.go": "package tui\n\ntype Renderer interface {\n\tInit()\n}\n",
  "fz/src/tui/light.go": [
    "package tui",
    "",
    "type LightRenderer struct{}",
    "",
    "func (r *LightRenderer) Init() {}",
    "",
  ].join("\n"),
  "fz/src/algo/algo.go": "package algo\n\nfunc FuzzyMatchV2() int { return 0 }\n",
  "fz/src/terminal.go": [
    "// Package fzf is the finder.",
    "package fzf",
    "",
    "type Terminal struct{}",
    "",
    "func (t *Terminal) Input() []rune { return nil }",
    "",
  ].join("\n"),
  "rcrate/src/lib.rs": [
    "mod config {",
    "    pub struct Parser;",
    "    impl Parser {",
    "        pub fn run(&self) {}",
    "    }",
    "}",
    "",
  ].join("\n"),
  "rcrate/src/search/walk.rs": [
    "pub struct Walker;",
    "impl Walker {",
    "    pub fn next(&mut self) {}",
    "}",
    "",
  ].join("\n"),
  "j/src/main/java/com/acme/util/Strings.java": [
    "package com.acme.util;",
    "",
    "public class Strings {",
    "    public static String pad(String s) { return s; }",
    "    static class Inner {",
    "        void pad() {}",
    "    }",
    "}",
    "",
  ].join("\n"),
  "cpp/widget.cpp": [
    "namespace ui {",
    "namespace detail {",
    "class Widget {",
    "  void draw();",
    "  void show() {}",
    "};",
    "}",
    "void detail::Widget::draw() {}",
    "}",
    "",
  ].join("\n"),
  "web/app.ts": "export class Engine {\n  start(): void {}\n}\n",
};

/** `path:line` of each definition find_symbol answers for `name`. */
async function ours(h: Harness, name: string): Promise<string[]> {
  const result = await call(findSymbolTool, { name }, h);
  assert.equal(result.isError, undefined, text(result));
  const symbols = result.structuredContent?.symbols as string[];
  return symbols.map((s) => s.replace(/-\d+: .*$/, "")).sort();
}

/** True when `qualified`'s parts end with `asked`'s (both split on `.` and `::`). */
function endsWith(qualified: string, asked: string): boolean {
  const have = qualified.split(/::|\./);
  const want = asked.replace(/\(\*?(\w+)\)/g, "$1").split(/::|\./);
  if (want.length > have.length) return false;
  return want.every((part, i) => have[have.length - want.length + i] === part);
}

/**
 * Every definition ctags finds, with its qualified name: Go's scope holds the package, Java's
 * package is the file's `package` tag, C++ and Rust scopes hold the namespaces and modules.
 */
async function ctagsNames(root: string): Promise<Array<{ at: string; qualified: string }>> {
  const out = await new Deno.Command("ctags", {
    args: ["--output-format=json", "--fields=+nKsZ", "-R", "--languages=Go,Java,C++,Rust", "."],
    cwd: root,
    stdout: "piped",
  }).output();
  assert.ok(out.success, "ctags ran");
  const tags = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
  const packages = new Map<string, string>();
  for (const t of tags) if (t.kind === "package") packages.set(t.path, t.name);
  const names = [];
  for (const t of tags) {
    if (t.kind === "package" || t.kind === "implementation") continue;
    const java = t.path.endsWith(".java");
    const separator = java || t.path.endsWith(".go") ? "." : "::";
    const scope = [java ? packages.get(t.path) : undefined, t.scope].filter((s) => s).join(".");
    const qualified = scope === "" ? t.name : `${scope}${separator}${t.name}`;
    names.push({ at: `${t.path}:${t.line}`, qualified });
  }
  return names;
}

/** Python's own reading: `ast` for the classes and functions, modules from the package root. */
async function pythonNames(root: string): Promise<Array<{ at: string; qualified: string }>> {
  const script = `
import ast, json, os, sys
root = sys.argv[1]
out = []
for folder, dirs, files in os.walk(root):
    for f in files:
        if not f.endswith(".py"):
            continue
        path = os.path.join(folder, f)
        rel = os.path.relpath(path, root)
        parts = rel[:-3].split(os.sep)
        top = len(parts) - 1
        while top > 0 and os.path.exists(os.path.join(root, *parts[:top], "__init__.py")):
            top -= 1
        if top == len(parts) - 1 and "src" in parts[:-1]:
            top = len(parts) - 1 - parts[:-1][::-1].index("src")
        module = parts[top:]
        if module[-1] == "__init__":
            module = module[:-1]
        def visit(node, prefix):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.ClassDef, ast.FunctionDef)):
                    name = prefix + [child.name]
                    out.append({"at": rel + ":" + str(child.lineno), "qualified": ".".join(name)})
                    visit(child, name)
        visit(ast.parse(open(path).read()), module)
print(json.dumps(out))
`;
  const out = await new Deno.Command("python3", { args: ["-c", script, root], stdout: "piped" })
    .output();
  assert.ok(out.success, "python3 ran");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** What the oracles find for `name`: the definitions whose qualified name ends with it. */
function expected(names: Array<{ at: string; qualified: string }>, name: string): string[] {
  return names.filter((n) => endsWith(n.qualified, name)).map((n) => n.at).sort();
}

const QUERIES = [
  // Python: module paths from the package root; a suffix matches.
  "routing.APIRouter",
  "fastapi.routing.APIRouter",
  "APIRouter.add_api_route",
  "fastapi.routing.APIRoute.matches",
  "requests.sessions.Session.send",
  "sessions.Session.send",
  "Session.send",
  "tool.main",
  "test_routing.TestAPIRouter.add_api_route",
  // Go: packages (the clause's name), receivers in each form, interface methods.
  "tui.Renderer",
  "algo.FuzzyMatchV2",
  "(*Terminal).Input",
  "Terminal.Input",
  "fzf.Terminal.Input",
  "tui.LightRenderer.Init",
  "(*LightRenderer).Init",
  "Renderer.Init",
  // Java: packages, classes, nested classes.
  "com.acme.util.Strings.pad",
  "util.Strings.pad",
  "Strings.Inner.pad",
  "Inner.pad",
  // C++: namespaces, in-class and out-of-class definitions.
  "ui::detail::Widget::draw",
  "detail::Widget::show",
  "Widget::draw",
  // Rust: inline modules and impl blocks.
  "config::Parser::run",
  "Parser::run",
];

toolTest(
  "find_symbol: qualified names find what ctags and Python's ast qualify so, in each language",
  TREE,
  async (h) => {
    const names = [...await ctagsNames(h.root), ...await pythonNames(h.root)];
    for (const name of QUERIES) {
      const want = expected(names, name);
      assert.ok(want.length > 0, `the oracles find ${name}`);
      assert.deepEqual(await ours(h, name), want, name);
    }
  },
);

toolTest(
  "find_symbol: a qualified name whose leading parts name another module or scope is a miss",
  TREE,
  async (h) => {
    const names = [...await ctagsNames(h.root), ...await pythonNames(h.root)];
    for (
      const name of [
        "requests.models.Session.send",
        "fastapi.APIRouter",
        "ui::Widget::draw",
        "other.Strings.pad",
        "algo.Terminal.Input",
      ]
    ) {
      assert.deepEqual(expected(names, name), [], `the oracles find no ${name}`);
      assert.deepEqual(await ours(h, name), [], name);
    }
  },
);

toolTest(
  "find_symbol: Rust file modules and the crate's name qualify what the files define",
  TREE,
  async (h) => {
    for (const name of ["search::walk::Walker::next", "rcrate::search::walk::Walker::next"]) {
      assert.deepEqual(await ours(h, name), ["rcrate/src/search/walk.rs:3"], name);
    }
    assert.deepEqual(await ours(h, "crate::config::Parser"), ["rcrate/src/lib.rs:2"]);
    assert.deepEqual(await ours(h, "web::Walker::next"), []);
  },
);

toolTest(
  "find_symbol: a qualified miss names where the last part is defined, file and line",
  TREE,
  async (h) => {
    const send = await call(findSymbolTool, { name: "requests.models.Session.send" }, h);
    assert.equal(
      text(send),
      'No definitions of "send" in "requests.models.Session"; "send" is defined as ' +
        "requests.adapters.HTTPAdapter.send (src/requests/adapters.py:2), " +
        "requests.sessions.Session.send (src/requests/sessions.py:2)",
    );
    const router = await call(findSymbolTool, { name: "fastapi.APIRouter" }, h);
    assert.equal(
      text(router),
      'No definitions of "APIRouter" in "fastapi"; "APIRouter" is defined as ' +
        "fastapi.routing.APIRouter (fastapi/routing.py:7)",
    );
    const input = await call(findSymbolTool, { name: "algo.Terminal.Input" }, h);
    assert.match(text(input), /is defined as fzf\.Terminal\.Input \(fz\/src\/terminal\.go:6\)$/);
  },
);

toolTest(
  "find_symbol: a Go file's package clause is read again once the file changes",
  TREE,
  async (h) => {
    assert.deepEqual(await ours(h, "fzf.Terminal.Input"), ["fz/src/terminal.go:6"]);
    const path = `${h.root}/fz/src/terminal.go`;
    const text = Deno.readTextFileSync(path).replace("package fzf", "package core");
    Deno.writeTextFileSync(path, text);
    assert.deepEqual(await ours(h, "fzf.Terminal.Input"), []);
    assert.deepEqual(await ours(h, "core.Terminal.Input"), ["fz/src/terminal.go:6"]);
  },
);
