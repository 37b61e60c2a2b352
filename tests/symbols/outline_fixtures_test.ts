/**
 * Symbols of one fixture per language (tests/testdata/symbols/), each holding every symbol kind
 * its language has (docs/tools.md "Symbols"), parsed by the real parser worker. The expected
 * outlines were checked by hand against the fixtures.
 */
import assert from "node:assert/strict";
import { SymbolService } from "../../lib/symbols/service.ts";
import { flattenSymbols, outlineLine } from "../../lib/symbols/outline_lines.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import type { CodeSymbol } from "../../lib/symbols/types.ts";

const FIXTURES = new URL("../testdata/symbols/", import.meta.url).pathname;

async function outlineOf(
  file: string,
): Promise<{ text: string; partial: boolean; symbols: CodeSymbol[] }> {
  const ws = Workspace.openSync({ root: FIXTURES, noIgnore: true, allowSecrets: false });
  const service = new SymbolService({ workers: 1 });
  try {
    const result = await service.symbols(ws, [file], {
      signal: new AbortController().signal,
      maxBytes: 1 << 20,
    });
    const outcome = result.get(file);
    assert.ok(outcome?.ok, `${file} parsed`);
    return {
      text: flattenSymbols(outcome.symbols).map(outlineLine).join("\n"),
      partial: outcome.partial,
      symbols: outcome.symbols,
    };
  } finally {
    service.stop();
  }
}

function outlineTest(file: string, expected: string): void {
  Deno.test(`symbols: ${file} outline has every kind, nested, in source order`, async () => {
    const got = await outlineOf(file);
    assert.equal(
      got.text,
      expected.trim().split("\n").map((l) => l.replace(/^ {4}/, "")).join("\n"),
    );
    assert.equal(got.partial, false);
  });
}
outlineTest(
  "sample.c",
  `
    3-3 macro MAX_ITEMS
    4-4 macro SQUARE
    6-9 struct point
      7-7 field x
      8-8 field y
    11-14 union value
      12-12 field i
      13-13 field f
    16-19 enum color
      17-17 constant RED
      18-18 constant GREEN
    21-24 type size_t2
      22-22 field width
      23-23 field height
    26-26 type ulong_t
    28-28 variable counter
    29-29 variable greeting
    34-39 function add
    41-47 function make_point
    49-49 function counter_value
`,
);

outlineTest(
  "sample.cpp",
  `
    3-3 macro VERSION
    5-36 namespace app
      7-7 enum Mode
        7-7 constant Fast
        7-7 constant Slow
      9-12 struct Config
        10-10 field threads
        11-11 field mode
      14-17 union Raw
        15-15 field i
        16-16 field c
      19-19 type Name
      20-20 type Count
      22-29 class Engine
        25-25 method run
        28-28 field speed_
      32-34 function twice
    38-38 method Engine
    40-42 method stop
    44-44 variable global_count
    46-49 function main
`,
);

outlineTest(
  "sample.ts",
  `
    4-4 constant LIMIT
    5-5 variable mutable
    7-10 interface Shape
      8-8 method area
      9-9 field name
    12-12 type Id
    14-17 enum Direction
      15-15 constant Up
      16-16 constant Down
    19-23 namespace Geometry
      20-22 function distance
    25-27 class Base
      26-26 method describe
    29-42 class Widget
      30-30 field name
      31-31 field #secret
      32-34 method constructor
      35-37 method area
      38-41 method describe
        39-39 function helper
    44-49 function makeWidget
      45-47 function inner
    51-51 function arrow
`,
);

outlineTest(
  "sample.tsx",
  `
    4-7 interface Props
      5-5 field title
      6-6 method onClose
    9-9 type State
    11-13 function Dialog
    15-20 class Modal
      16-16 field state
      17-19 method render
    22-25 function useToggle
`,
);

outlineTest(
  "sample.jsx",
  `
    4-4 constant DEFAULTS
    5-5 variable legacy
    7-16 class Panel
      8-8 field state
      9-9 field count
      10-12 method toggle
      13-15 method render
    18-20 function ids
    22-25 function App
    27-29 function handler
`,
);

outlineTest(
  "sample.py",
  `
    4-4 constant MAX_RETRIES
    5-5 variable default_path
    8-11 function helper
      9-10 function inner
    14-25 class Repository
      15-15 field kind
      17-18 method __init__
      20-22 method name
      24-25 class Meta
        25-25 field ordering
    28-30 function decorated
    34-35 function platform
    37-37 constant _FASTAPI_SCOPE_KEY
    38-38 constant __ALL_CAPS_2
    39-39 variable _private_var
`,
);

outlineTest(
  "sample.go",
  `
    6-6 constant Version
    9-9 constant ModeA
    10-10 constant ModeB
    13-13 variable counter
    15-18 struct Server
      16-16 field Name
      17-17 field port
    20-22 interface Handler
      21-21 method Serve
    24-24 type ID
    26-26 type Port
    28-30 function NewServer
    32-35 method Start
    37-37 method Valid
`,
);

outlineTest(
  "sample.rs",
  `
    4-4 constant LIMIT
    5-5 variable GREETING
    7-11 macro square
    13-16 struct Parser
      14-14 field input
      15-15 field pos
    18-21 enum Token
      19-19 constant Word
      20-20 constant End
    23-26 union Bits
      24-24 field i
      25-25 field f
    28-33 interface Visitor
      29-29 method visit
      30-32 method done
    35-35 type Result
    38-40 method new
    44-46 method fmt
    49-53 module inner
      50-52 function helper
    55-58 function main
`,
);

outlineTest(
  "Sample.java",
  `
    6-37 class Sample
      7-7 field LIMIT
      8-8 field name
      8-8 field label
      10-12 method Sample
      14-16 method getName
      18-21 interface Listener
        19-19 constant PRIORITY
        20-20 method onEvent
      23-26 enum Color
        24-24 constant RED
        24-24 constant GREEN
        25-25 method next
      28-28 class Point
      30-32 class Account
        31-31 field balance
      34-36 interface Marker
        35-35 method value
`,
);

outlineTest(
  "sample.rb",
  `
    2-2 constant VERSION
    4-24 module Shop
      5-5 constant RATE
      7-23 class Store
        8-8 constant LIMIT
        10-12 method initialize
        14-16 method open
        19-21 method registry
    26-28 function top_level_helper
`,
);
