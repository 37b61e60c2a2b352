/**
 * A symbol name as models write it: `Session.send`, `Widget::draw`, `a::b::c`, `Foo#bar`. Split
 * on the last separator (`.`, `::`, or a `#` that does not start the name, since `#x` is a
 * JavaScript private name) into the member looked for and the container it must be in.
 */

export interface QualifiedName {
  /** The name looked for. */
  member: string;
  /** What must enclose it (`Session`, `a::b`), or null for a bare name. */
  container: string | null;
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
  if (at < 0) return { member: name, container: null };
  const container = name.slice(0, at);
  const member = name.slice(at + width);
  if (container === "" || member === "" || container.endsWith(":")) return null;
  return { member, container };
}

/**
 * True when a symbol's container is the one asked for: the same, or its last part names it
 * (`Session` matches a container `requests.Session` or `net::Session`, `a::B` matches `a::B`).
 */
export function containerMatches(
  asked: string,
  container: string | undefined,
  ignoreCase: boolean,
): boolean {
  if (container === undefined) return false;
  const want = ignoreCase ? asked.toLowerCase() : asked;
  const have = ignoreCase ? container.toLowerCase() : container;
  if (have === want) return true;
  const last = want.split(/::|\./).pop() ?? want;
  return have === last || have.endsWith(`::${want}`) || have.endsWith(`.${want}`);
}
