/** Where git runs, as found at start by availability.ts and used by the runner. */
export interface GitTarget {
  /** Absolute path of the git binary (outside the root). */
  git: string;
  /** Real path of the root: the top of the work tree. */
  root: string;
  /** Real path of the repository folder (`.git`, or where its gitfile points, inside the root). */
  gitDir: string;
  /** Real path of the common folder (the git dir itself unless a linked work tree). */
  commonDir: string;
}
