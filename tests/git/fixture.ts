/**
 * Git fixtures: repositories made with the system git in a temp folder, "naive" git runs (the
 * command a careless server would run: inherited environment, the repository's own config), and
 * canary programs that leave a mark when something executes them.
 */
import assert from "node:assert/strict";
import { detectGit } from "../../lib/git/availability.ts";
import { GitRunner } from "../../lib/git/runner.ts";
import { type Config, defaultConfig } from "../../lib/config.ts";
import type { CallContext } from "../../lib/tools/tool.ts";
import { Session } from "../../lib/tools/session.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import type { Harness } from "../tools/helpers.ts";

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the system git the naive way: inherited environment, no forced config. */
export function naive(cwd: string, args: string[], env: Record<string, string> = {}): Ran {
  const out = new Deno.Command("git", {
    args,
    cwd,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

/** Like naive, but with a fixed identity and dates, failing the test when git fails. */
export function git(cwd: string, ...args: string[]): string {
  const r = naive(cwd, args, {
    GIT_AUTHOR_NAME: "Ada",
    GIT_AUTHOR_EMAIL: "ada@example.com",
    GIT_COMMITTER_NAME: "Ada",
    GIT_COMMITTER_EMAIL: "ada@example.com",
    GIT_AUTHOR_DATE: "2024-01-02T03:04:05Z",
    GIT_COMMITTER_DATE: "2024-01-02T03:04:05Z",
  });
  assert.equal(r.code, 0, `git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

export interface Repo {
  /** A temp folder holding the repository folder and anything "outside" it. */
  base: string;
  /** The repository's work tree (the served root). */
  root: string;
  write(rel: string, content: string | Uint8Array): void;
  commit(message: string): void;
  dispose(): Promise<void>;
}

/** A fresh repository `<base>/repo` (branch main) with one commit of `files`. */
export function makeRepo(files: Record<string, string | Uint8Array> = { "a.txt": "one\n" }): Repo {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "shipcode_git_" }));
  const root = `${base}/repo`;
  Deno.mkdirSync(root);
  git(root, "init", "-q", "-b", "main");
  git(root, "config", "user.name", "Ada");
  git(root, "config", "user.email", "ada@example.com");
  const write = (rel: string, content: string | Uint8Array) => {
    const path = `${root}/${rel}`;
    Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") Deno.writeTextFileSync(path, content);
    else Deno.writeFileSync(path, content);
  };
  const commit = (message: string) => {
    git(root, "add", "-A");
    git(root, "commit", "-q", "--allow-empty", "-m", message);
  };
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  commit("first");
  return {
    base,
    root,
    write,
    commit,
    dispose: () => Deno.remove(base, { recursive: true }),
  };
}

/** A program that records each run in a marker file; `filter` ones also copy stdin to stdout. */
export interface Canary {
  /** Absolute path of the program. */
  path: string;
  /** True (and resets) when the program ran since the last call. */
  fired(): boolean;
}

export function canary(base: string, name: string, options: { filter?: boolean } = {}): Canary {
  const path = `${base}/${name}.sh`;
  const marker = `${base}/${name}.fired`;
  Deno.writeTextFileSync(
    path,
    `#!/bin/sh\necho ran >> '${marker}'\n${options.filter ? "cat\n" : ""}exit 0\n`,
  );
  Deno.chmodSync(path, 0o755);
  return {
    path,
    fired() {
      try {
        Deno.removeSync(marker);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** The runner the server would use for `root` (the root must pass the availability check). */
export function runnerFor(root: string): GitRunner {
  const found = detectGit(root, { enabled: true });
  assert.ok(found.ok, found.ok ? "" : found.reason);
  return new GitRunner(found.target);
}

export function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** True when the system git is installed (the git suites need it; CI installs it). */
export function hasGit(): boolean {
  try {
    return new Deno.Command("git", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** A tool harness (tests/tools/helpers.ts) on a repository: its workspace and a git session. */
export function gitHarness(repo: Repo, config: Partial<Config> = {}): Promise<Harness> {
  const ws = Workspace.openSync({
    root: repo.root,
    noIgnore: false,
    allowSecrets: config.allowSecrets ?? false,
  });
  const found = detectGit(repo.root, { enabled: true });
  assert.ok(found.ok, found.ok ? "" : found.reason);
  const controller = new AbortController();
  const ctx: CallContext = {
    signal: controller.signal,
    progress: () => {},
    workspace: ws,
    config: { ...defaultConfig(), root: repo.root, ...config },
    session: new Session({ git: found.target }),
  };
  return Promise.resolve({ root: repo.root, ws, ctx, progress: [], controller });
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);

/**
 * A repository with real history: a rename with an edit, a merge, a binary file, unicode and
 * space names, a committed secret; left with staged, unstaged, deleted and untracked changes.
 */
export function historyRepo(): Repo {
  const lines = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join("\n") + "\n";
  const repo = makeRepo({
    "a.txt": lines(30, "a"),
    "src/lib.ts": lines(12, "lib"),
    "ünïcödé name.txt": "unicode\n",
    "sp ace.txt": "space\n",
    "img.png": PNG,
    "gone.txt": "to be deleted\n",
  });
  repo.write("a.txt", lines(30, "a").replace("a line 5\n", "a line five\n"));
  Deno.renameSync(`${repo.root}/src/lib.ts`, `${repo.root}/src/core.ts`);
  repo.write("src/core.ts", lines(12, "lib") + "export {};\n");
  repo.write(".env", "API_KEY=hunter2\n");
  repo.write("img.png", new Uint8Array([...PNG, 4, 5, 6]));
  repo.commit("second: rename lib to core, env");
  git(repo.root, "checkout", "-q", "-b", "feature");
  repo.write("feature.txt", "feature work\n");
  repo.write(".env", "API_KEY=hunter3\n");
  repo.commit("feature work");
  git(repo.root, "checkout", "-q", "main");
  repo.write("a.txt", lines(30, "a").replace("a line 5\n", "a line five\n") + "tail\n");
  repo.commit("main work");
  git(repo.root, "merge", "-q", "--no-ff", "-m", "merge feature", "feature");
  for (let i = 0; i < 25; i++) {
    repo.write("log.txt", `entry ${i}\n`);
    repo.commit(`log entry ${i}`);
  }
  // Work tree state: staged, unstaged, deleted, untracked.
  repo.write("a.txt", "staged first line\n" + lines(30, "a"));
  git(repo.root, "add", "a.txt");
  repo.write("sp ace.txt", "space\nunstaged\n");
  Deno.removeSync(`${repo.root}/gone.txt`);
  repo.write("new file.txt", "untracked\n");
  repo.write("ünïcödé name.txt", "unicode\nchanged\n");
  git(repo.root, "add", "ünïcödé name.txt");
  repo.write(".env", "API_KEY=worktree-secret\n");
  return repo;
}
