/**
 * The files a Python safe rename checks (lib/semantic/python/importers.ts): the renamed files and
 * those that import one of them directly (`import m`, `import pkg.m as x`, `from pkg.m import`,
 * `from . import m`, a bare `from . import` beside it or `from .. import` below it, a package's `__init__` by the package's
 * name); a file that imports none of them, a non-Python or missing path, is left out.
 */
import assert from "node:assert/strict";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import { withImporters } from "../../../lib/semantic/python/importers.ts";

const FILES: Record<string, string> = {
  "pkg/__init__.py": "from .models import Point\n",
  "pkg/models.py": "class Point:\n    pass\n",
  "pkg/sibling.py": "from . import Point\n",
  "pkg/far/deep.py": "from .. import shapes\n",
  "a.py": "import pkg.models as m\n",
  "b.py": "from pkg.models import Point\n",
  "c.py": "import os\n\nmodels = 1\n",
  "d.py": "import pkg\n",
  "e.py": "from pkg import (\n    models,\n)\n",
  "notes.txt": "import models\n",
};

Deno.test("python importers: the renamed files and the files that import one of them directly", async () => {
  const root = await Deno.makeTempDir({ prefix: "py-importers-" });
  try {
    for (const [rel, text] of Object.entries(FILES)) {
      await Deno.mkdir(`${root}/${rel}`.replace(/\/[^/]+$/, ""), { recursive: true });
      await Deno.writeTextFile(`${root}/${rel}`, text);
    }
    const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
    const found = withImporters(ws, ["pkg/models.py", "notes.txt", "gone.py", 7]);
    assert.equal(found[0], "pkg/models.py");
    assert.deepEqual(
      found.slice(1).sort(),
      // pkg/far/deep.py's `from .. import` leads into models.py's folder: checked too.
      ["a.py", "b.py", "e.py", "pkg/__init__.py", "pkg/far/deep.py", "pkg/sibling.py"],
    );
    // A package's __init__ is imported by the package's name.
    assert.deepEqual(
      withImporters(ws, ["pkg/__init__.py"]).slice(1).sort(),
      ["a.py", "b.py", "d.py", "e.py", "pkg/far/deep.py", "pkg/sibling.py"],
    );
    assert.deepEqual(withImporters(ws, ["notes.txt", "../x.py"]), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
