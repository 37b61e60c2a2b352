/**
 * The index worker's state that every step reads: the settings, the index in use, the phase and
 * its note, the build generation, whether the tree is trusted, and the status the main thread is
 * told (lib/index/protocol.ts IndexStatus).
 */
import type { LayeredIndex } from "../live/layered_index.ts";
import type { FromIndex, IndexPhase, IndexSettings, IndexStatus } from "../protocol.ts";
import { GiveWay } from "./give_way.ts";

export class IndexState {
  #post: (message: FromIndex) => void;
  #settings: IndexSettings | null = null;
  #index: LayeredIndex | null = null;
  #phase: IndexPhase = "idle";
  #note = "";
  #leftOut = 0;
  /** Build generation: a newer build (or a stop) makes an older one give up. */
  #generation = 0;
  /** The tree may have changed unseen: full scans until a stat pass catches up. */
  #untrusted = false;
  #persisted = 0;
  /** Files of the stored index being checked by the stat pass, and how many are checked so far. */
  #checkingTotal = 0;
  #checkedSoFar = 0;
  /** The slices of work no query waits for give way to the session's heavy calls. */
  readonly giveWay = new GiveWay();

  constructor(post: (message: FromIndex) => void) {
    this.#post = post;
  }

  post(message: FromIndex): void {
    this.#post(message);
  }

  /** The settings of the "open" message (read only after it). */
  get settings(): IndexSettings {
    if (this.#settings === null) throw new TypeError("The index worker was not opened");
    return this.#settings;
  }

  set settings(settings: IndexSettings) {
    this.#settings = settings;
  }

  get index(): LayeredIndex | null {
    return this.#index;
  }

  /** `next` is the index in use (the caller closed or carried over the one before). */
  useIndex(next: LayeredIndex): void {
    this.#index = next;
  }

  /** The index is closed and gone. */
  dropIndex(): void {
    this.#index?.close();
    this.#index = null;
  }

  get phase(): IndexPhase {
    return this.#phase;
  }

  get generation(): number {
    return this.#generation;
  }

  /** A new build or pass begins: older ones give up at their next look. */
  nextGeneration(): number {
    return ++this.#generation;
  }

  isCurrent(generation: number): boolean {
    return generation === this.#generation;
  }

  get untrusted(): boolean {
    return this.#untrusted;
  }

  distrust(): void {
    this.#untrusted = true;
  }

  trust(): void {
    this.#untrusted = false;
  }

  resetLeftOut(): void {
    this.#leftOut = 0;
  }

  countLeftOut(): void {
    this.#leftOut++;
  }

  notePersisted(): void {
    this.#persisted++;
  }

  status(): IndexStatus {
    const index = this.#index;
    return {
      phase: this.#phase,
      files: index?.liveFiles ?? 0,
      textBytes: index?.textBytes ?? 0,
      bytes: index?.bytes ?? 0,
      leftOut: this.#leftOut,
      note: this.#note,
      diskBytes: index?.diskBytes ?? 0,
      persisted: this.#persisted,
    };
  }

  /** Tells the main thread the status as it is now. */
  postStatus(): void {
    this.#post({ t: "state", status: this.status() });
  }

  setPhase(next: IndexPhase, why = ""): void {
    this.#phase = next;
    this.#note = why;
    this.postStatus();
  }

  /** The stat pass of a stored index of `total` files begins (told as its first progress). */
  startChecking(total: number): void {
    this.#checkingTotal = total;
    this.#phase = "checking";
    this.#note = "";
    // A query already waiting hears at once that the check began (0 of all), later ones as it goes.
    this.postChecked(0);
  }

  /** Tells the queries waiting on the stat pass how far it is (the main thread passes it on). */
  postChecked(checked: number): void {
    this.#checkedSoFar = checked;
    this.#post({
      t: "state",
      status: { ...this.status(), files: this.#checkingTotal, checked },
    });
  }

  /** The last progress told, told again (to a query that just began waiting). */
  repostChecked(): void {
    this.postChecked(this.#checkedSoFar);
  }

  /** Something failed: the index is off until the next build, and the note says why. */
  fail(error: unknown): void {
    this.dropIndex();
    this.setPhase("off", `index failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
