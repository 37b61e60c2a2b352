// Definitions inside callbacks, methods, closures and nested functions.
Deno.test("steps", async (t) => {
  await t.step("hooks", async (t) => {
    async function assertHooks(): Promise<void> {}
    await assertHooks();
  });
  function* gen(): Generator<number> {
    yield 1;
  }
  const helper = (n: number) => n + 1;
  const data = [1, 2];
  interface Local {
    a: number;
  }
  type Alias = Local | null;
  enum Mode {
    On,
  }
  class Fake {
    run(): void {}
  }
});

export class Heap {
  static create(): Heap {
    type RelaxedCtor = new () => Heap;
    function build(ctor: RelaxedCtor): Heap {
      return new ctor();
    }
    return build(Heap);
  }
  handler = () => {
    function onEvent(): void {}
    onEvent();
  };
}

export function outer(flag: boolean): () => void {
  if (flag) {
    for (const x of [1]) {
      function deep(): number {
        return x;
      }
      deep();
    }
  }
  return function named(): void {};
}

export const table = makeTable(() => {
  function rowOf(): void {}
  rowOf();
});

describe.only = function describeOnly(): void {};
const text = "function notReal() {}";
// function alsoNotReal() {}
