/**
 * Waiting on behaviour, not on the clock: a test that needs the server to have done something
 * turns the event loop until it has (a bound on turns ends a hang), so a loaded machine makes it
 * slower, never wrong.
 */

/** The most turns a wait takes before it fails (each turn is at least one timer tick). */
const MAX_TURNS = 20_000;

/** One turn of the event loop: every step that was ready has run. */
export function turn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Turns of the event loop until `holds`. */
export async function until(holds: () => boolean, what: string): Promise<void> {
  for (let k = 0; !holds(); k++) {
    if (k > MAX_TURNS) throw new Error(`still not so after ${MAX_TURNS} turns: ${what}`);
    await turn();
  }
}

/** Turns of the event loop until `state()` stays the same for `quiet` turns in a row. */
export async function steady(state: () => string, quiet = 10): Promise<void> {
  let last = state();
  for (let idle = 0, k = 0; idle < quiet; k++) {
    if (k > MAX_TURNS) throw new Error(`no steady state after ${MAX_TURNS} turns`);
    await turn();
    const now = state();
    idle = now === last ? idle + 1 : 0;
    last = now;
  }
}
