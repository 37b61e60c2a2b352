/**
 * The Python fixture of the semantic tests: a package in a `src/` layout with relative and
 * absolute imports, `import x as y`, `from m import name`, a class hierarchy with overrides,
 * keyword arguments, a dataclass, `__all__`, a syntax error and type errors; a virtual
 * environment folder inside the root with a site-packages package; a pyrightconfig.json with
 * `extraPaths` entries inside the root and one leading outside. Around it: an outside folder
 * with a unique token (where the outside `extraPaths` entry leads), a secret module (a secret
 * file name) with a token of its own, a symlink leading out, and interpreters (a fake `python`
 * for PATH, the venv's `bin/python`) that each leave a marker file when run.
 */

export const OUTSIDE_TOKEN = "OUTSIDE_TOKEN_5b1e27c9";
export const SECRET_TOKEN = "SECRET_TOKEN_9d04aa31";

export const PROJECT: Record<string, string> = {
  "pyrightconfig.json": JSON.stringify(
    { venvPath: ".", venv: "venv", extraPaths: ["extra", "src", "../outside"] },
    null,
    2,
  ) + "\n",
  "venv/pyvenv.cfg": "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n",
  "venv/lib/python3.12/site-packages/vendorpkg/__init__.py":
    "def vendor_fn(count: int) -> str:\n    return str(count)\n\n\nclass VendorThing:\n    size: int = 0\n",
  "extra/extramod.py": "def extra_fn() -> int:\n    return 1\n",
  "src/shop/__init__.py": '__all__ = ["Shape", "make_shape", "Point"]\n\n' +
    "from .models import Point, Shape, make_shape\n",
  "src/shop/models.py": "from dataclasses import dataclass\n" +
    "\n" +
    "\n" +
    "@dataclass\n" +
    "class Point:\n" +
    "    x: int\n" +
    "    y: int = 0\n" +
    "\n" +
    "\n" +
    "class Shape:\n" +
    "    def area(self) -> float:\n" +
    "        return 0.0\n" +
    "\n" +
    "    def describe(self) -> str:\n" +
    '        return f"{self.area()}"\n' +
    "\n" +
    "\n" +
    "class Square(Shape):\n" +
    "    def __init__(self, side: float) -> None:\n" +
    "        self.side = side\n" +
    "\n" +
    "    def area(self) -> float:\n" +
    "        return self.side * self.side\n" +
    "\n" +
    "\n" +
    'def make_shape(side: float, *, label: str = "") -> Shape:\n' +
    "    return Square(side) if label else Shape()\n",
  "src/shop/orders.py": "import shop.models as m\n" +
    "from shop.models import make_shape\n" +
    "from . import models\n" +
    "from .models import Point as P\n" +
    "\n" +
    "\n" +
    "def total(count: int) -> float:\n" +
    '    shape = make_shape(2.0, label="big")\n' +
    "    square = m.Square(side=3.0)\n" +
    "    point = P(x=1, y=2)\n" +
    "    other = models.Point(x=point.x)\n" +
    "    return shape.area() + square.area() + other.y + count\n",
  "src/shop/typed.py": "from shop.models import Shape\n" +
    "\n" +
    'width: int = "wide"\n' +
    "reveal_type(width)\n" +
    "Shape().perimeter()\n",
  "src/shop/broken.py": "def fine() -> int:\n    return 1\n\ndef broken(:\n    pass\n",
  // A byte order mark (pyright counts it as line 1's first character; our columns do not) and
  // CRLF line endings.
  "src/shop/bom.py": "\ufefffrom shop.models import make_shape\n\nbom_shape = make_shape(1.0)\n",
  "src/shop/crlf.py":
    "from shop.models import Point\r\n\r\ncrlf_point = Point(x=3)\r\nprint(crlf_point.x)\r\n",
  "main.py": "import vendorpkg\n" +
    "import extramod\n" +
    "import outsidemod\n" +
    "import id_rsa_keys\n" +
    "from shop import make_shape, Point\n" +
    "from shop.orders import total\n" +
    "\n" +
    "print(vendorpkg.vendor_fn(3), extramod.extra_fn(), total(count=2))\n" +
    'print(make_shape(1.0, label="x").describe(), Point(x=1).x, len([1]))\n',
};

export interface Position {
  path: string;
  line: number;
  name: string;
  occurrence?: number;
}

/** Positions the parity and confinement tests ask about. */
export const POSITIONS: Position[] = [
  { path: "main.py", line: 1, name: "vendorpkg" },
  { path: "main.py", line: 5, name: "make_shape" },
  { path: "main.py", line: 5, name: "Point" },
  { path: "main.py", line: 8, name: "vendor_fn" },
  { path: "main.py", line: 8, name: "extra_fn" },
  { path: "main.py", line: 8, name: "total" },
  { path: "main.py", line: 8, name: "count" },
  { path: "main.py", line: 9, name: "describe" },
  { path: "main.py", line: 9, name: "label" },
  { path: "main.py", line: 9, name: "x" },
  { path: "main.py", line: 9, name: "x", occurrence: 2 },
  { path: "main.py", line: 9, name: "len" },
  { path: "src/shop/orders.py", line: 1, name: "m" },
  { path: "src/shop/orders.py", line: 2, name: "make_shape" },
  { path: "src/shop/orders.py", line: 4, name: "P" },
  { path: "src/shop/orders.py", line: 8, name: "label" },
  { path: "src/shop/orders.py", line: 9, name: "m" },
  { path: "src/shop/orders.py", line: 9, name: "Square" },
  { path: "src/shop/orders.py", line: 9, name: "side" },
  { path: "src/shop/orders.py", line: 10, name: "P" },
  { path: "src/shop/orders.py", line: 11, name: "models" },
  { path: "src/shop/orders.py", line: 11, name: "Point" },
  { path: "src/shop/orders.py", line: 12, name: "area" },
  { path: "src/shop/models.py", line: 5, name: "Point" },
  { path: "src/shop/models.py", line: 6, name: "x" },
  { path: "src/shop/models.py", line: 11, name: "area" },
  { path: "src/shop/models.py", line: 22, name: "area" },
  { path: "src/shop/models.py", line: 26, name: "label" },
  { path: "src/shop/__init__.py", line: 3, name: "Shape" },
  { path: "src/shop/typed.py", line: 1, name: "Shape" },
  { path: "src/shop/bom.py", line: 1, name: "make_shape" },
  { path: "src/shop/bom.py", line: 3, name: "make_shape" },
  { path: "src/shop/crlf.py", line: 3, name: "Point" },
  { path: "src/shop/crlf.py", line: 4, name: "x" },
];

/** The 1-based column of the `occurrence`-th word `name` on `line` of a fixture file. */
export function columnOf(p: Position): number {
  const line = PROJECT[p.path].replace(/^\ufeff/, "").split("\n")[p.line - 1];
  const hits = [...line.matchAll(new RegExp(`(?<!\\w)${p.name}(?!\\w)`, "g"))];
  const hit = hits[(p.occurrence ?? 1) - 1];
  if (hit === undefined) throw new Error(`${p.name} is not on ${p.path}:${p.line}`);
  return hit.index! + 1;
}

/**
 * Files shown to our server only: absent for it (the secret) or never listed in its answers (the
 * ignored copy), as for an oracle that never had them.
 */
export const HIDDEN: Record<string, string> = {
  // An ignored copy: pyright reads it for types, answers never list it.
  ".ignore": "build/\n",
  "build/copy.py": "import vendorpkg\n\nvendorpkg.vendor_fn(4)\n",
  "id_rsa_keys.py": `KEY = "${SECRET_TOKEN}"\n`,
  ".env": `SECRET=${SECRET_TOKEN}\n`,
};

export interface PythonFixture {
  base: string;
  /** The root our server serves (with the outside folder, secret files, link and markers). */
  root: string;
  /** The same project as the oracle sees it (no outside folder, no secret, no link). */
  oracleRoot: string;
  /** A folder holding a fake `python` that leaves a marker when run. */
  fakeBin: string;
  /** Marker files an interpreter run would leave (none may exist after any call). */
  markers: string[];
  dispose(): Promise<void>;
}

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = `${root}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

function markerScript(marker: string): string {
  return `#!/bin/sh\necho ran > "${marker}"\necho "Python 3.12.3"\n`;
}

export async function makePythonProject(): Promise<PythonFixture> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "py_semantic_" }));
  const root = `${base}/ours/root`;
  const oracleRoot = `${base}/oracle/root`;
  await writeTree(root, { ...PROJECT, ...HIDDEN });
  await writeTree(oracleRoot, PROJECT);
  await writeTree(`${base}/ours/outside`, {
    "outsidemod.py": `TOKEN = "${OUTSIDE_TOKEN}"\n\ndef outside_fn() -> str:\n    return TOKEN\n`,
  });
  Deno.symlinkSync(`${base}/ours/outside/outsidemod.py`, `${root}/src/shop/linked.py`);
  const fakeBin = `${base}/bin`;
  const markers = [`${base}/path_python_ran`, `${base}/venv_python_ran`];
  await Deno.mkdir(fakeBin, { recursive: true });
  for (const name of ["python", "python3"]) {
    await Deno.writeTextFile(`${fakeBin}/${name}`, markerScript(markers[0]));
    await Deno.chmod(`${fakeBin}/${name}`, 0o755);
  }
  // Only our root's venv has an interpreter: the oracle (empty PATH) has nothing to run.
  await Deno.mkdir(`${root}/venv/bin`, { recursive: true });
  for (const name of ["python", "python3"]) {
    await Deno.writeTextFile(`${root}/venv/bin/${name}`, markerScript(markers[1]));
    await Deno.chmod(`${root}/venv/bin/${name}`, 0o755);
  }
  return {
    base,
    root,
    oracleRoot,
    fakeBin,
    markers,
    dispose: () => Deno.remove(base, { recursive: true }),
  };
}
