import assert from "node:assert/strict";
import { readFileTool } from "../../lib/tools/read_file.ts";
import { call, text, toolTest } from "./helpers.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

const TREE: Record<string, string | Uint8Array> = {
  "ten.txt": TEN,
  "crlf.txt": "a\r\nb\r\n",
  "long.txt": "y".repeat(2600) + "\nshort\n",
  "empty.txt": "",
  "img.png": PNG,
  "bin.dat": new Uint8Array([1, 2, 3, 0, 4]),
  ".env": "SECRET=1\n",
  "dir/x.txt": "x\n",
  "bom.txt": "\uFEFFfirst\nsecond",
};

function sc(result: { structuredContent?: Record<string, unknown> }) {
  return result.structuredContent as Record<string, unknown>;
}

toolTest("read_file: lines are numbered like cat -n", TREE, async (h) => {
  const r = await call(readFileTool, { path: "ten.txt", limit: 2 }, h);
  assert.equal(text(r).split("\n").slice(0, 2).join("\n"), "     1\tline 1\n     2\tline 2");
  assert.equal(sc(r).text, "     1\tline 1\n     2\tline 2");
});

toolTest("read_file: offset and limit select lines and name the next offset", TREE, async (h) => {
  const r = await call(readFileTool, { path: "ten.txt", offset: 4, limit: 3 }, h);
  assert.equal(
    text(r),
    "     4\tline 4\n     5\tline 5\n     6\tline 6\n[... 4 more lines; call again with offset=7]",
  );
  assert.deepEqual(sc(r), {
    path: "ten.txt",
    start_line: 4,
    end_line: 6,
    total_lines: 10,
    next_offset: 7,
    truncated: true,
    text: "     4\tline 4\n     5\tline 5\n     6\tline 6",
  });
});

toolTest("read_file: a negative offset counts from the end", TREE, async (h) => {
  const r = await call(readFileTool, { path: "ten.txt", offset: -2 }, h);
  assert.equal(text(r), "     9\tline 9\n    10\tline 10");
  assert.equal(sc(r).truncated, false);
});

toolTest("read_file: an offset past the end says how many lines there are", TREE, async (h) => {
  const r = await call(readFileTool, { path: "ten.txt", offset: 11 }, h);
  assert.equal(r.isError, true);
  assert.equal(text(r), 'Cannot read "ten.txt" from line 11: the file has 10 lines');
});

toolTest("read_file: file_path takes an absolute path inside the root", TREE, async (h) => {
  const r = await call(readFileTool, { file_path: `${h.root}/ten.txt`, limit: 1 }, h);
  assert.equal(sc(r).path, "ten.txt");
});

toolTest("read_file: path and file_path together are an error", TREE, async (h) => {
  const r = await call(readFileTool, { path: "ten.txt", file_path: "ten.txt" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /only one of path and file_path/);
});

toolTest("read_file: neither path nor file_path is an error", TREE, async (h) => {
  const r = await call(readFileTool, {}, h);
  assert.equal(r.isError, true);
});

toolTest("read_file: a CR before LF is not shown", TREE, async (h) => {
  const r = await call(readFileTool, { path: "crlf.txt" }, h);
  assert.equal(text(r), "     1\ta\n     2\tb");
});

toolTest("read_file: a UTF-8 BOM is not shown", TREE, async (h) => {
  const r = await call(readFileTool, { path: "bom.txt" }, h);
  assert.equal(text(r), "     1\tfirst\n     2\tsecond");
});

toolTest("read_file: lines over 2000 characters are cut with the rest counted", TREE, async (h) => {
  const r = await call(readFileTool, { path: "long.txt" }, h);
  const [first, second] = text(r).split("\n");
  assert.equal(first, `     1\t${"y".repeat(2000)}... [+600 chars]`);
  assert.equal(second, "     2\tshort");
});

toolTest("read_file: an empty file has zero lines", TREE, async (h) => {
  const r = await call(readFileTool, { path: "empty.txt" }, h);
  assert.equal(sc(r).total_lines, 0);
  assert.equal(r.isError, undefined);
});

toolTest("read_file: a png comes back as an image block", TREE, async (h) => {
  const r = await call(readFileTool, { path: "img.png" }, h);
  assert.deepEqual(r.content, [{
    type: "image",
    data: btoa(String.fromCharCode(...PNG)),
    mimeType: "image/png",
  }]);
  assert.deepEqual(sc(r), { path: "img.png", mimeType: "image/png", size: PNG.length });
});

toolTest(
  "read_file: offset or limit on an image is said, not silently ignored",
  TREE,
  async (h) => {
    const r = await call(readFileTool, { path: "img.png", offset: 10, limit: 5 }, h);
    assert.equal(r.isError, undefined);
    assert.equal(r.content[0].type, "image");
    const note = "offset and limit do not apply to an image: the whole image/png image is shown";
    assert.deepEqual(r.content[1], { type: "text", text: `[${note}]` });
    assert.deepEqual(sc(r), { path: "img.png", mimeType: "image/png", size: PNG.length, note });
    const one = await call(readFileTool, { path: "img.png", limit: 1 }, h);
    assert.equal(
      sc(one).note,
      "limit does not apply to an image: the whole image/png image is shown",
    );
  },
);

toolTest("read_file: an image over 5 MiB is an error with its size", TREE, async (h) => {
  const big = new Uint8Array(5 * 1024 * 1024 + 1);
  big.set(PNG);
  await Deno.writeFile(`${h.root}/big.png`, big);
  const r = await call(readFileTool, { path: "big.png" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /5242881 bytes/);
});

toolTest("read_file: other binary files are an error that says so", TREE, async (h) => {
  const r = await call(readFileTool, { path: "bin.dat" }, h);
  assert.equal(r.isError, true);
  assert.equal(
    text(r),
    'Cannot read "bin.dat": it is a binary file (5 bytes, a NUL byte at byte 3) and not a png, ' +
      "jpeg, gif or webp image; read_file shows only text files and images",
  );
});

/** `lines` text lines of ordinary width with one NUL byte put at byte `at`. */
function withNul(lines: number, at: number): Uint8Array {
  const body = Array.from({ length: lines }, (_, i) => `  int value_${i} = compute(${i});`)
    .join("\n") + "\n";
  const bytes = new TextEncoder().encode(body);
  bytes[at] = 0;
  return bytes;
}

toolTest(
  "read_file: a NUL byte anywhere makes the file binary, whatever page is asked",
  {
    // The first NUL early, late (the last byte, past the first 256 KiB read), and in a line
    // after the first page, with the pages asked before, around and after it.
    "early.txt": withNul(2000, 10),
    "late.txt": withNul(20_000, 20_000 * 30 - 1),
    "after_page.txt": withNul(5000, 4000 * 30),
  },
  async (h) => {
    const asks = [{}, { offset: 1, limit: 5 }, { offset: 3990, limit: 20 }, { offset: -3 }];
    for (const path of ["early.txt", "late.txt", "after_page.txt"]) {
      const size = (await Deno.stat(`${h.root}/${path}`)).size;
      for (const ask of asks) {
        const r = await call(readFileTool, { path, ...ask }, h);
        assert.equal(r.isError, true, `${path} ${JSON.stringify(ask)}`);
        assert.match(
          text(r),
          new RegExp(`^Cannot read "${path}": it is a binary file \\(${size} `),
        );
        assert.doesNotMatch(text(r), /\0|\uFFFD/);
      }
    }
    const late = await call(readFileTool, { path: "late.txt", limit: 1 }, h);
    assert.match(text(late), new RegExp(`a NUL byte at byte ${20_000 * 30 - 1}\\)`));
  },
);

toolTest("read_file: an image with NUL bytes keeps its image block", TREE, async (h) => {
  assert.ok(PNG.includes(0));
  const r = await call(readFileTool, { path: "img.png", offset: 5, limit: 1 }, h);
  assert.equal(r.content[0].type, "image");
});

toolTest(
  "read_file: a 1,500-line source file comes back whole in one call by default",
  TREE,
  async (h) => {
    // Ordinary C: indentation by tabs, quotes, ~32 characters a line on average.
    const shapes = [
      "\tif (ret < 0)",
      '\t\tpr_err("%s: failed to map %d\\n", __func__, ret);',
      "\treturn ret;",
      "}",
      "",
      "static int foo_probe(struct platform_device *pdev)",
      "{",
      "\tstruct foo_priv *priv = platform_get_drvdata(pdev);",
    ];
    const lines = Array.from({ length: 1500 }, (_, i) => shapes[i % shapes.length]);
    await Deno.writeTextFile(`${h.root}/driver.c`, lines.join("\n") + "\n");
    const r = await call(readFileTool, { path: "driver.c" }, h);
    assert.equal(sc(r).end_line, 1500);
    assert.equal(sc(r).truncated, false);
    assert.ok(text(r).length <= 60_000);
  },
);

toolTest(
  "read_file: its budget is --max-read-chars (60,000), not --max-output-chars",
  TREE,
  async (h) => {
    const lines = Array.from({ length: 3000 }, (_, i) => `row ${i + 1} ${"z".repeat(40)}`);
    await Deno.writeTextFile(`${h.root}/rows.txt`, lines.join("\n") + "\n");
    h.ctx.config.maxOutputChars = 1000;
    const r = await call(readFileTool, { path: "rows.txt" }, h);
    const end = sc(r).end_line as number;
    assert.ok(end > 1000 && end < 2000, String(end));
    assert.ok(Math.max(text(r).length, JSON.stringify(sc(r)).length) <= 60_000);
    assert.ok(Math.max(text(r).length, JSON.stringify(sc(r)).length) > 55_000);
    assert.equal(sc(r).next_offset, end + 1);
    const rest = await call(readFileTool, { path: "rows.txt", offset: end + 1 }, h);
    assert.equal(sc(rest).start_line, end + 1);
    h.ctx.config.maxReadChars = 0; // off: the 2000-line default limit alone
    const off = await call(readFileTool, { path: "rows.txt" }, h);
    assert.equal(sc(off).end_line, 2000);
  },
);

toolTest("read_file: a missing path suggests the nearest served paths", TREE, async (h) => {
  const r = await call(readFileTool, { path: "dir/y.txt" }, h);
  assert.equal(r.isError, true);
  assert.equal(
    text(r),
    'Cannot access "dir/y.txt": no such file or folder in the workspace; did you mean dir/x.txt?',
  );
  const none = await call(readFileTool, { path: "qqqqqqqqqqqq.qq" }, h);
  assert.doesNotMatch(text(none), /did you mean/);
  const secret = await call(readFileTool, { path: ".enx" }, h);
  assert.doesNotMatch(text(secret), /\.env/);
});

toolTest("read_file: secret files are refused", TREE, async (h) => {
  const r = await call(readFileTool, { path: ".env" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /secret/);
});

toolTest("read_file: paths outside the root are refused", TREE, async (h) => {
  const r = await call(readFileTool, { file_path: "/etc/hostname" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /outside the workspace/);
});

toolTest("read_file: a folder is an error pointing to list_dir", TREE, async (h) => {
  const r = await call(readFileTool, { path: "dir" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /list_dir/);
});

toolTest(
  "read_file: the budget cuts at a line boundary and names the next offset",
  TREE,
  async (h) => {
    h.ctx.config.maxReadChars = 1000;
    const lines = Array.from({ length: 500 }, (_, i) => `row ${i + 1} ${"z".repeat(20)}`);
    await Deno.writeTextFile(`${h.root}/rows.txt`, lines.join("\n") + "\n");
    const r = await call(readFileTool, { path: "rows.txt" }, h);
    assert.ok(JSON.stringify(r.structuredContent).length <= 1000);
    assert.ok(text(r).length <= 1000);
    const end = sc(r).end_line as number;
    assert.equal(sc(r).next_offset, end + 1);
    assert.equal(sc(r).total_lines, 500);
    assert.ok(text(r).endsWith(`[... ${500 - end} more lines; call again with offset=${end + 1}]`));
  },
);

toolTest("read_file: an explicit limit is honoured beyond the budget", TREE, async (h) => {
  h.ctx.config.maxReadChars = 1000;
  const lines = Array.from({ length: 500 }, (_, i) => `row ${i + 1}`);
  await Deno.writeTextFile(`${h.root}/rows.txt`, lines.join("\n") + "\n");
  const r = await call(readFileTool, { path: "rows.txt", limit: 300 }, h);
  assert.equal(sc(r).end_line, 300);
});

toolTest("read_file: a large file is streamed and its lines all counted", TREE, async (h) => {
  const line = "0123456789".repeat(10) + "\n";
  await Deno.writeTextFile(`${h.root}/large.txt`, line.repeat(40_000));
  const r = await call(readFileTool, { path: "large.txt", offset: 39_999 }, h);
  assert.equal(sc(r).total_lines, 40_000);
  assert.equal(sc(r).end_line, 40_000);
});

toolTest(
  "read_file: ignored files are refused",
  { ".git/HEAD": "ref", ".gitignore": "secret_build.txt\n", "secret_build.txt": "x\n" },
  async (h) => {
    const r = await call(readFileTool, { path: "secret_build.txt" }, h);
    assert.equal(r.isError, true);
    assert.match(text(r), /ignore/);
  },
);

toolTest("read_file: a symlink leading out of the root is treated as absent", {}, async (h) => {
  const outside = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(outside, "outside\n");
    await Deno.symlink(outside, `${h.root}/link.txt`);
    const r = await call(readFileTool, { path: "link.txt" }, h);
    assert.equal(r.isError, true);
    assert.doesNotMatch(text(r), /outside\n/);
  } finally {
    await Deno.remove(outside);
  }
});
