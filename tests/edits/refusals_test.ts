/**
 * Which paths the edit tools refuse (docs/workspace.md "Writes"): each refusal says why, and
 * nothing outside the root, in .git, secret, ignored or not a regular file is ever written.
 */
import assert from "node:assert/strict";
import { editFile, writeFile } from "../../lib/edits/operations.ts";
import { type EditFixture, editFixture, LIMITS } from "./helpers.ts";
import { sh } from "../helpers/fixture.ts";

async function refused(f: EditFixture, input: string): Promise<string> {
  // Pretend every file was read, so only the path rules can refuse.
  const attempts = [
    () => writeFile(f.ws, f.edits, { input, content: "pwned\n" }, LIMITS),
    () =>
      editFile(f.ws, f.edits, {
        input,
        oldString: "",
        newString: "pwned\n",
        replaceAll: false,
        dryRun: false,
      }, LIMITS),
  ];
  let message = "";
  for (const attempt of attempts) {
    try {
      await attempt();
    } catch (e) {
      assert.ok(e instanceof Error);
      message = e.message;
      continue;
    }
    assert.fail(`${input} was written`);
  }
  return message;
}

function refusalTest(name: string, fn: (f: EditFixture) => Promise<void>) {
  Deno.test(name, async () => {
    const f = await editFixture({
      "a.ts": "a\n",
      ".git/config": "[core]\n",
      ".git/hooks/pre-commit": "#!/bin/sh\n",
      ".gitignore": "dist/\n*.log\n",
      "sub/keep.ts": "k\n",
    });
    try {
      await fn(f);
    } finally {
      await f.dispose();
    }
  });
}

refusalTest("write refusal: ../ out of the root, absolute outside, sibling prefix", async (f) => {
  Deno.writeTextFileSync(`${f.base}/victim.txt`, "safe\n");
  Deno.mkdirSync(`${f.root}2`);
  assert.match(await refused(f, "../victim.txt"), /outside the workspace/);
  assert.match(await refused(f, "sub/../../victim.txt"), /outside the workspace/);
  assert.match(await refused(f, `${f.base}/victim.txt`), /outside the workspace/);
  assert.match(await refused(f, `${f.root}2/x.txt`), /outside the workspace/);
  assert.match(await refused(f, `file://${f.base}/victim.txt`), /outside the workspace/);
  assert.equal(Deno.readTextFileSync(`${f.base}/victim.txt`), "safe\n");
  assert.deepEqual([...Deno.readDirSync(`${f.root}2`)], []);
});

refusalTest("write refusal: a symlinked file or folder leading out", async (f) => {
  Deno.writeTextFileSync(`${f.base}/victim.txt`, "safe\n");
  Deno.mkdirSync(`${f.base}/outdir`);
  Deno.symlinkSync(`${f.base}/victim.txt`, `${f.root}/link.txt`);
  Deno.symlinkSync(`${f.base}/outdir`, `${f.root}/outlink`);
  Deno.symlinkSync(`${f.base}/nowhere`, `${f.root}/dangling`);
  f.edits.reads.record(
    `${f.base}/victim.txt`,
    { size: 5, mtimeMs: 0, sha256: "", lines: 1 },
    "all",
  );
  assert.match(await refused(f, "link.txt"), /symbolic link/);
  assert.match(await refused(f, "outlink/new.txt"), /leads outside the workspace/);
  assert.match(await refused(f, "dangling/new.txt"), /leads outside the workspace/);
  assert.match(await refused(f, "dangling"), /symbolic link/);
  assert.equal(Deno.readTextFileSync(`${f.base}/victim.txt`), "safe\n");
  assert.deepEqual([...Deno.readDirSync(`${f.base}/outdir`)], []);
});

refusalTest("write refusal: a symlink inside the root is not written through", async (f) => {
  Deno.symlinkSync("a.ts", `${f.root}/alias.ts`);
  await f.read("a.ts");
  assert.match(await refused(f, "alias.ts"), /symbolic link; edit the file it points to/);
  assert.equal(Deno.readLinkSync(`${f.root}/alias.ts`), "a.ts");
  assert.equal(f.text("a.ts"), "a\n");
});

refusalTest("write refusal: .git/config and .git/hooks in any letter case", async (f) => {
  for (const p of [".git/config", ".git/hooks/pre-commit", ".GIT/hooks/post-merge", "sub/.Git/x"]) {
    assert.match(await refused(f, p), /\.git folder is never written/, p);
  }
  assert.equal(f.text(".git/config"), "[core]\n");
  assert.equal(f.text(".git/hooks/pre-commit"), "#!/bin/sh\n");
});

refusalTest("write refusal: every secret pattern in any letter case", async (f) => {
  const secrets = [
    ".env",
    ".ENV.local",
    "config/.env.production",
    "server.pem",
    "Server.KEY",
    "cert.p12",
    "cert.PFX",
    "id_rsa",
    "ID_RSA.pub",
    "id_ed25519",
    "id_ecdsa_sk",
    ".npmrc",
    ".PyPIrc",
    ".netrc",
    ".git-credentials",
    "Credentials.JSON",
    "release.keystore",
  ];
  for (const p of secrets) assert.match(await refused(f, p), /secret files/, p);
  assert.deepEqual([...Deno.readDirSync(f.root)].map((e) => e.name).sort(), [
    ".git",
    ".gitignore",
    "a.ts",
    "sub",
  ]);
});

Deno.test("write refusal: --allow-secrets lets a secret be written", async () => {
  const f = await editFixture({}, { allowSecrets: true });
  try {
    await writeFile(f.ws, f.edits, { input: ".env", content: "A=1\n" }, LIMITS);
    assert.equal(f.text(".env"), "A=1\n");
  } finally {
    await f.dispose();
  }
});

refusalTest("write refusal: ignored paths, new or existing", async (f) => {
  Deno.mkdirSync(`${f.root}/dist`);
  Deno.writeTextFileSync(`${f.root}/dist/out.js`, "x\n");
  Deno.writeTextFileSync(`${f.root}/sub/.ignore`, "gen.ts\n");
  assert.match(await refused(f, "dist/out.js"), /ignore rules/);
  assert.match(await refused(f, "dist/new.js"), /ignore rules/);
  assert.match(await refused(f, "debug.log"), /ignore rules/);
  assert.match(await refused(f, "sub/gen.ts"), /ignore rules/);
  assert.equal(f.text("dist/out.js"), "x\n");
});

refusalTest(
  "write refusal: a FIFO, a folder, the root, a NUL, a backslash, a control character",
  async (f) => {
    await sh("mkfifo pipe", f.root);
    assert.match(await refused(f, "pipe"), /not a regular file/);
    assert.match(await refused(f, "sub"), /it is a folder/);
    assert.match(await refused(f, ""), /workspace folder, not a file/);
    assert.match(await refused(f, "a.ts\0.txt"), /NUL byte/);
    assert.match(await refused(f, "sub\\x.ts"), /backslashes/);
    assert.match(await refused(f, "new\nline.ts"), /control character/);
    assert.match(await refused(f, "a.ts/x"), /is a file, not a folder/);
  },
);
