import assert from "node:assert/strict";
import { FLAGS, parseArgs, usage } from "../../lib/cli/args.ts";
import { defaultConfig } from "../../lib/config.ts";

Deno.test("cli args: no flags give the defaults", () => {
  assert.deepEqual(parseArgs([]), { kind: "run", config: defaultConfig() });
});

Deno.test("cli args: every flag sets its option, with a space or =", () => {
  const parsed = parseArgs([
    "--root",
    "/w",
    "--no-ignore",
    "--allow-secrets",
    "--max-message-bytes=100",
    "--max-read-bytes",
    "200",
    "--max-output-chars=0",
    "--max-read-chars",
    "0",
    "--regex-timeout-ms",
    "50",
    "--log-level=debug",
    "--write",
    "--no-git",
  ]);
  assert.deepEqual(parsed, {
    kind: "run",
    config: {
      ...defaultConfig(),
      root: "/w",
      rootExplicit: true,
      noIgnore: true,
      allowSecrets: true,
      maxMessageBytes: 100,
      maxReadBytes: 200,
      maxOutputChars: 0,
      maxReadChars: 0,
      regexTimeoutMs: 50,
      logLevel: "debug",
      write: true,
      git: false,
    },
  });
});

Deno.test("cli args: help and version win", () => {
  assert.deepEqual(parseArgs(["--root", "/w", "--help"]), { kind: "help" });
  assert.deepEqual(parseArgs(["-V"]), { kind: "version" });
});

Deno.test("cli args: bad values and unknown flags are errors that name the flag", () => {
  assert.deepEqual(parseArgs(["--max-message-bytes", "0"]), {
    kind: "error",
    message: '--max-message-bytes needs a whole number >= 1, got "0"',
  });
  assert.deepEqual(parseArgs(["--max-read-bytes=1e3"]), {
    kind: "error",
    message: '--max-read-bytes needs a whole number >= 1, got "1e3"',
  });
  assert.deepEqual(parseArgs(["--root"]), { kind: "error", message: "--root needs a folder" });
  assert.deepEqual(parseArgs(["--log-level", "loud"]), {
    kind: "error",
    message: '--log-level must be one of debug, info, warn, error, off, got "loud"',
  });
  assert.deepEqual(parseArgs(["serve"]), { kind: "error", message: 'unknown option "serve"' });
  assert.deepEqual(parseArgs(["--toString"]), {
    kind: "error",
    message: 'unknown option "--toString"',
  });
});

Deno.test("cli args: --help lists every flag the parser takes, with its help text", () => {
  const text = usage("9.9.9");
  for (const flag of FLAGS) {
    assert.ok(text.includes(`  ${flag.name}`), `${flag.name} missing from --help`);
    assert.ok(text.replace(/\s+/g, " ").includes(flag.help), `help of ${flag.name} missing`);
  }
  assert.ok(text.split("\n").every((line) => line.length <= 100), "a --help line is too long");
});

Deno.test("cli args: switches take no value", () => {
  assert.deepEqual(parseArgs(["--write=yes"]), {
    kind: "error",
    message: "--write takes no value",
  });
});

Deno.test("cli args: --cache-dir takes a folder and --no-cache turns the cache off", () => {
  assert.deepEqual(parseArgs(["--cache-dir", "/c", "--no-cache"]), {
    kind: "run",
    config: { ...defaultConfig(), cacheDir: "/c", noCache: true },
  });
  assert.deepEqual(parseArgs(["--cache-dir=/d"]), {
    kind: "run",
    config: { ...defaultConfig(), cacheDir: "/d" },
  });
  assert.deepEqual(parseArgs(["--cache-dir"]), {
    kind: "error",
    message: "--cache-dir needs a folder",
  });
  assert.deepEqual(parseArgs(["--cache-dir="]), {
    kind: "error",
    message: "--cache-dir needs a folder",
  });
});
