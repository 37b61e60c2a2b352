/**
 * C++ as leveldb writes it: classes in `.h` headers (parsed as C++ when the text is C++), local
 * structs in test bodies, and a preprocessor conditional inside a constructor's initialiser list
 * that the grammar cannot parse; every definition after it is still found.
 */
import assert from "node:assert/strict";
import { flattenSymbols, outlineLine } from "../../lib/symbols/outline_lines.ts";
import { headerLanguage } from "../../lib/symbols/languages.ts";
import { blankConditionals } from "../../lib/symbols/cpp_directives.ts";
import { parseFiles } from "./temp_tree.ts";
import type { FileOutcome } from "../../lib/symbols/service.ts";

const HEADER = `#ifndef STORAGE_LEVELDB_UTIL_ARENA_H_
#define STORAGE_LEVELDB_UTIL_ARENA_H_
namespace leveldb {

class Arena {
 public:
  Arena();
  char* Allocate(size_t bytes) { return nullptr; }

 private:
  size_t alloc_bytes_remaining_;
};

}  // namespace leveldb
#endif
`;

const LIMITER = `class Limiter {
 public:
  Limiter(int max_acquires)
      :
#if !defined(NDEBUG)
        max_acquires_(max_acquires),
#endif  // !defined(NDEBUG)
        acquires_allowed_(max_acquires) {
  }

  bool Acquire() { return true; }

 private:
  int acquires_allowed_;
};

void AfterLimiter() {}
`;

const TEST = `TEST_F(EnvTest, RunMany) {
  struct RunState {
    int run_count = 0;
  };
  struct Callback {
    void Run() {}
  };
}
`;

function lines(outcome: FileOutcome | undefined): string[] {
  assert.ok(outcome?.ok);
  return flattenSymbols(outcome.symbols).map(outlineLine);
}

Deno.test("symbols: a .h file holding C++ is parsed as C++", async () => {
  const got = await parseFiles({
    "arena.h": HEADER,
    "plain.h": "/* class   Device class */\nint f(void);\nstruct s { int a; };\n",
  });
  const arena = got.get("arena.h");
  assert.deepEqual(lines(arena), [
    "2-2 macro STORAGE_LEVELDB_UTIL_ARENA_H_",
    "3-14 namespace leveldb",
    "  5-12 class Arena",
    "    8-8 method Allocate",
    "    11-11 field alloc_bytes_remaining_",
  ]);
  assert.ok(arena?.ok && arena.language === "cpp" && !arena.partial);
  const plain = got.get("plain.h");
  assert.ok(plain?.ok && plain.language === undefined);
  assert.deepEqual(lines(plain), ["3-3 struct s", "  3-3 field a"]);
});

Deno.test("symbols: a conditional inside a C++ initialiser list hides no later definition", async () => {
  const got = await parseFiles({ "limiter.cc": LIMITER });
  const outcome = got.get("limiter.cc");
  assert.deepEqual(lines(outcome), [
    "1-15 class Limiter",
    "  3-9 method Limiter",
    "  11-11 method Acquire",
    "  14-14 field acquires_allowed_",
    "17-17 function AfterLimiter",
  ]);
  assert.ok(outcome?.ok && !outcome.partial);
});

Deno.test("symbols: C++ structs declared in a function body are its children", async () => {
  const got = await parseFiles({ "env_test.cc": TEST });
  assert.deepEqual(lines(got.get("env_test.cc")), [
    "1-8 function TEST_F",
    "  2-4 struct RunState",
    "    3-3 field run_count",
    "  5-7 struct Callback",
    "    6-6 method Run",
  ]);
});

Deno.test("symbols: which headers are C++, and the blanked conditionals keep every position", () => {
  assert.equal(headerLanguage(HEADER), "cpp");
  assert.equal(headerLanguage("template <typename T>\nstruct X;\n"), "cpp");
  assert.equal(headerLanguage(" *  class    Device class to match\nint x;\n"), "c");
  assert.equal(headerLanguage("struct s { int private; };\n"), "c");
  const blanked = blankConditionals(LIMITER)!;
  assert.equal(blanked.length, LIMITER.length);
  assert.deepEqual(
    blanked.split("\n").map((l) => l.length),
    LIMITER.split("\n").map((l) => l.length),
  );
  assert.doesNotMatch(blanked, /#if|#endif/);
  assert.match(blanked, /max_acquires_\(max_acquires\),/);
  assert.equal(blankConditionals("int a;\n"), null);
});
