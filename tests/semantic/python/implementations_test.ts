/**
 * Python implementations (implementations.ts): subclasses, direct and transitive, and the
 * overrides of a method, on a hierarchy with an abstract base (abc.ABC + @abstractmethod), two
 * levels of subclasses, an override in one subclass only, a subclass imported under an alias from
 * another module and a base named through a module alias, uses of the class that are not bases
 * (an annotation, a subscript, a keyword argument), and a look-alike class of the same name in
 * another module that does not derive from it. The classes equal pyright standalone's walk: its
 * references to each class, kept when they stand in a class statement's bases and their
 * definition is that class; the look-alike and its subclass are never listed.
 */
import assert from "node:assert/strict";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import type { Answer, Definition } from "../../../lib/semantic/engine.ts";
import { pythonEngine } from "../../../lib/semantic/python/engine.ts";
import { classStatementOf, importAlias } from "../../../lib/semantic/python/implementations.ts";
import { oracleSubclasses } from "./implementations_oracle.ts";
import { writeTree } from "../../helpers/fixture.ts";
import { makePythonProject } from "./fixture.ts";
import { findNode, PyrightOracle } from "./pyright_oracle.ts";

const BASE = "src/zoo/base.py";
const PETS = "src/zoo/pets.py";
const PARK = "src/zoo/park.py";
const OTHER = "src/zoo/other.py";

const EXTRA: Record<string, string> = {
  "src/zoo/__init__.py": "",
  [BASE]: [
    "from abc import ABC, abstractmethod",
    "",
    "",
    "class Animal(ABC):",
    "    @abstractmethod",
    "    def speak(self) -> str: ...",
    "",
    "    def name(self) -> str:",
    '        return "animal"',
    "",
  ].join("\n"),
  [PETS]: [
    "from zoo.base import Animal",
    "",
    "",
    "class Dog(Animal):",
    "    def speak(self) -> str:",
    '        return "woof"',
    "",
    "",
    "class Puppy(Dog):",
    "    pass",
    "",
    "",
    "def adopt(a: Animal) -> list[Animal]:",
    "    return [a]",
    "",
  ].join("\n"),
  [PARK]: [
    "from abc import ABCMeta",
    "",
    "import zoo.base as b",
    "from zoo.pets import Dog as Hound",
    "",
    "",
    "class Cat(",
    "    b.Animal,",
    "):",
    "    def name(self) -> str:",
    '        return "cat"',
    "",
    "",
    "class Beagle(Hound):",
    "    def speak(self) -> str:",
    '        return "bay"',
    "",
    "",
    "class Pen(list[b.Animal]):",
    "    pass",
    "",
    "",
    "class Tagged(metaclass=ABCMeta):",
    "    kind = b.Animal",
    "",
  ].join("\n"),
  [OTHER]: [
    "class Animal:",
    "    def speak(self) -> str:",
    '        return "other"',
    "",
    "",
    "class Robot(Animal):",
    "    def speak(self) -> str:",
    '        return "beep"',
    "",
  ].join("\n"),
};

/** A 1-based place of a name on a line of an EXTRA file. */
function place(path: string, line: number, name: string): string {
  const text = EXTRA[path].split("\n")[line - 1];
  const hit = new RegExp(`(?<!\\w)${name}(?!\\w)`).exec(text);
  if (hit === null) throw new Error(`${name} is not on ${path}:${line}`);
  return `${path}:${line}:${hit.index + 1}`;
}

const node = findNode();

Deno.test({
  name: "python implementations: subclasses and overrides as pyright resolves them (needs node)",
  ignore: node === null,
  async fn(t) {
    const fixture = await makePythonProject();
    await writeTree(fixture.root, EXTRA);
    await writeTree(fixture.oracleRoot, EXTRA);
    const oracle = await PyrightOracle.start(node!, fixture.oracleRoot);
    const engine = pythonEngine();
    const ws = Workspace.openSync({ root: fixture.root, noIgnore: false, allowSecrets: false });
    const signal = new AbortController().signal;
    const implementations = async (path: string, line: number, name: string) => {
      const answer = await engine.ask(ws, {
        kind: "implementations",
        at: { path, line, name },
      }, { signal });
      assert.equal(answer.kind, "implementations");
      assert.equal(answer.engine, "pyright");
      return (answer as Extract<Answer, { kind: "implementations" }>).definitions;
    };
    const places = (list: Definition[]) => list.map((d) => `${d.path}:${d.line}:${d.column}`);
    const animal = place(BASE, 4, "Animal");
    const dog = place(PETS, 4, "Dog");
    const puppy = place(PETS, 9, "Puppy");
    const cat = place(PARK, 7, "Cat");
    const beagle = place(PARK, 14, "Beagle");
    try {
      await t.step("the subclasses of a class, direct and transitive", async () => {
        const got = await implementations(BASE, 4, "Animal");
        assert.deepEqual(places(got).sort(), [beagle, cat, puppy, dog].sort());
        assert.deepEqual(places(got).sort(), await oracleSubclasses(oracle, animal));
        const cls = got.find((d) => d.name === "Cat")!;
        assert.deepEqual(
          { kind: cls.kind, text: cls.text, end_line: cls.end_line },
          { kind: "class", text: "class Cat(", end_line: 11 },
        );
      });
      await t.step("asked at a use: through the import alias", async () => {
        const got = await implementations(PARK, 14, "Hound");
        assert.deepEqual(places(got).sort(), [beagle, puppy].sort());
        assert.deepEqual(places(got).sort(), await oracleSubclasses(oracle, dog));
      });
      await t.step(
        "the overrides of an abstract method: in the subclasses that define it",
        async () => {
          const got = await implementations(BASE, 6, "speak");
          assert.deepEqual(places(got), [place(PARK, 15, "speak"), place(PETS, 5, "speak")]);
          assert.deepEqual(got.map((d) => d.kind), ["method", "method"]);
        },
      );
      await t.step("an override in one subclass only", async () => {
        assert.deepEqual(places(await implementations(BASE, 8, "name")), [
          place(PARK, 10, "name"),
        ]);
        assert.deepEqual(places(await implementations(PARK, 10, "name")), []);
      });
      await t.step("the look-alike of the same name: its own subclass only", async () => {
        const got = await implementations(OTHER, 1, "Animal");
        assert.deepEqual(places(got), [place(OTHER, 6, "Robot")]);
        assert.deepEqual(places(got), await oracleSubclasses(oracle, place(OTHER, 1, "Animal")));
        const speak = await implementations(OTHER, 2, "speak");
        assert.deepEqual(places(speak), [place(OTHER, 7, "speak")]);
        for (const [path, line, name] of [[BASE, 4, "Animal"], [BASE, 6, "speak"]] as const) {
          const all = places(await implementations(path, line, name));
          assert.ok(all.every((p) => !p.startsWith(OTHER)), `${name}: ${all}`);
        }
      });
      await t.step("a function or a variable has none", async () => {
        assert.deepEqual(await implementations(PETS, 13, "adopt"), []);
        assert.deepEqual(await implementations(PARK, 24, "kind"), []);
      });
    } finally {
      engine.stop();
      await oracle.stop();
      await fixture.dispose();
    }
  },
});

Deno.test("classStatementOf: a name in a class statement's bases, and nothing else", () => {
  const at = (text: string, name: string) => classStatementOf(text, text.lastIndexOf(name));
  assert.equal(at("class A(B):\n", "B"), "A");
  assert.equal(at("class A(x, m.B, metaclass=M):\n", "B"), "A");
  assert.equal(at("class A(\n    Generic[T],\n    B,\n):\n", "B"), "A");
  assert.equal(at("class A[T](B[T]):\n", "B"), "A");
  assert.equal(at("class A(list[B]):\n", "B"), null);
  assert.equal(at("class A(metaclass=B):\n", "B"), null);
  assert.equal(at("x = f(B)\n", "B"), null);
  assert.equal(at("def f(a: B) -> None:\n", "B"), null);
  assert.equal(at("class A(B.C):\n", "B"), null);
});

Deno.test("importAlias: the alias of a name imported under another", () => {
  const at = (text: string, name: string) => importAlias(text, text.indexOf(name));
  assert.equal(at("from m import Base as B\n", "Base"), 8);
  assert.equal(at("from m import (\n    x,\n    Base  as  B,\n)\n", "Base"), 10);
  assert.equal(at("from m import Base\n", "Base"), null);
  assert.equal(at("except Base as e:\n", "Base"), null);
  assert.equal(at("with Base() as b:\n", "Base"), null);
});
