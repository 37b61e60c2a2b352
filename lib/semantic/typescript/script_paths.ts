/** Which files the TypeScript engine answers for, and which it leaves out of default projects. */

/** TypeScript and JavaScript files: the semantic tools answer these with types. */
const SCRIPT = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export function isScriptPath(path: string): boolean {
  return SCRIPT.test(path);
}

const MINIFIED = /[.-]min\.[cm]?js$/;

/**
 * A minified JavaScript file by its name (`app.min.js`, `vendor-min.js`): left out of the default
 * project, as TypeScript's own server leaves them out of projects it infers. Such bundles cost
 * far more than they tell (one of 400,000 `var` statements takes TypeScript's binder minutes).
 */
export function isMinifiedScript(path: string): boolean {
  return MINIFIED.test(path);
}
