/**
 * Git fixtures: repositories made with the system git in a temp folder, "naive" git runs (the
 * command a careless server would run: inherited environment, the repository's own config), and
 * canary programs that leave a mark when something executes them.
 */
import assert from "node:assert/strict";
import { detectGit } from "../../lib/git/availability.ts";
import { GitRunner } from "../../lib/git/runner.ts";

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
