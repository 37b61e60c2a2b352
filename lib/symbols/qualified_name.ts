/**
 * A symbol name as models write it, in each language's own form: Python `pkg.module.Class.method`,
 * Go `pkg.Name`, `Type.Method`, `(*Type).Method`, Rust `module::Type::method`, Java
 * `pkg.Class.method`, C++ `ns::Class::method`, TypeScript `Class.method`, Ruby `Foo#bar`. Split on
 * the last separator (`.`, `::`, or a `#` that does not start the name, since `#x` is a
 * JavaScript private name) into the member looked for and the container it must be in; the
 * container into its parts, which must be the last parts of the definition's qualified path
 * (module_path.ts: its module's path, then its enclosing names).
 */

export interface QualifiedName {
  /** The name looked for. */
  member: string;
  /** What must enclose it (`Session`, `a::b`), as written, or null for a bare name. */
  container: string | null;
  /**
   * The container's parts (`(*Terminal)` -> `Terminal`; Rust's leading `crate` and `self`, and
   * JavaScript's `prototype`, dropped), outermost first; empty for a bare name.
   */
  parts: string[];
}

/** The parts of `name`; null when a separator leaves one side empty (`Session.`, `::x`). */
export function splitQualifiedName(name: string): QualifiedName | null {
  const dot = name.lastIndexOf(".");
  const colons = name.lastIndexOf("::");
  let at = -1;
  let width = 0;
  if (dot >= 0 && dot >= colons) {
    at = dot;
    width = 1;
  } else if (colons >= 0) {
    at = colons;
    width = 2;
  } else {
    const hash = name.lastIndexOf("#");
    if (hash > 0) {
      at = hash;
      width = 1;
    }
  }
  if (at < 0) return { member: name, container: null, parts: [] };
  const container = name.slice(0, at);
  const member = name.slice(at + width);
  if (container === "" || member === "" || container.endsWith(":")) return null;
  const parts = containerParts(container);
  if (parts === null) return null;
  return { member, container, parts };
}

/** `a.b::(*C)#d` -> `["a", "b", "C", "d"]`; null when a part is empty (`a..b`). */
function containerParts(container: string): string[] | null {
  const raw = container.split(/::|\.|#/);
  const parts: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    // Go's method expressions: `(*T).M`, `(T).M`.
    const part = raw[i].replace(/^\(\*?(.*)\)$/, "$1");
    if (part === "") return null;
    if (i === 0 && (part === "crate" || part === "self") && raw.length > 1) continue;
    if (part === "prototype" && i > 0) continue;
    parts.push(part);
  }
  return parts.length === 0 ? null : parts;
}

/**
 * True when `path` (a definition's module path and enclosing names, outermost first) ends with
 * the asked container parts.
 */
export function endsWithParts(
  path: readonly string[],
  parts: readonly string[],
  ignoreCase: boolean,
): boolean {
  if (parts.length > path.length) return false;
  const offset = path.length - parts.length;
  for (let i = 0; i < parts.length; i++) {
    const have = path[offset + i];
    const want = parts[i];
    if (ignoreCase ? have.toLowerCase() !== want.toLowerCase() : have !== want) return false;
  }
  return true;
}

/** A symbol's enclosing names, outermost first: its `scope`, else its container's parts. */
export function enclosingNames(
  symbol: { container?: string; scope?: readonly string[] },
): string[] {
  if (symbol.scope !== undefined) return symbol.scope.flatMap((s) => s.split(/::|\./));
  if (symbol.container === undefined || symbol.container === "") return [];
  return symbol.container.split(/::|\./);
}
