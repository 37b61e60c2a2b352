#!/bin/sh
# Sets up the benchmark corpus: the Debian linux-source-6.1 tree, unpacked outside any git work tree,
# plus ripgrep and hyperfine. Idempotent: a second run only checks.
#   sh bench/corpus.sh            # corpus in /var/tmp/shipcode-bench/linux-source-6.1
#   BENCH_DIR=/elsewhere sh bench/corpus.sh
set -eu

BENCH_DIR="${BENCH_DIR:-/var/tmp/shipcode-bench}"
TARBALL=/usr/src/linux-source-6.1.tar.xz
TREE="$BENCH_DIR/linux-source-6.1"
# The "done" marker sits beside the tree, not in it (the tree is listed and searched as is).
MARKER="$BENCH_DIR/.linux-source-6.1.unpacked"

# An install may already be running (apt holds its lock): wait for it instead of failing.
wait_for_apt() {
  n=0
  while pgrep -x apt >/dev/null 2>&1 || pgrep -x apt-get >/dev/null 2>&1 || pgrep -x dpkg >/dev/null 2>&1; do
    if [ "$n" -eq 0 ]; then echo "corpus: waiting for a running apt/dpkg to finish" >&2; fi
    n=$((n + 1))
    if [ "$n" -gt 900 ]; then echo "corpus: apt still running after 30 min" >&2; exit 1; fi
    sleep 2
  done
}

missing=""
[ -f "$TARBALL" ] || missing="$missing linux-source-6.1"
command -v rg >/dev/null 2>&1 || missing="$missing ripgrep"
command -v hyperfine >/dev/null 2>&1 || missing="$missing hyperfine"
if [ -n "$missing" ]; then
  wait_for_apt
  # Re-check after waiting: the running install may have brought them.
  missing=""
  [ -f "$TARBALL" ] || missing="$missing linux-source-6.1"
  command -v rg >/dev/null 2>&1 || missing="$missing ripgrep"
  command -v hyperfine >/dev/null 2>&1 || missing="$missing hyperfine"
  if [ -n "$missing" ]; then
    echo "corpus: installing$missing" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    # shellcheck disable=SC2086
    $SUDO apt-get install -y $missing >&2 || {
      $SUDO apt-get update >&2
      # shellcheck disable=SC2086
      $SUDO apt-get install -y $missing >&2
    }
  fi
fi

# The tree must not sit inside a git work tree: a parent repo's ignore rules would apply to it.
case "$(cd / && git -C "$(dirname "$BENCH_DIR")" rev-parse --is-inside-work-tree 2>/dev/null || true)" in
  true) echo "corpus: $BENCH_DIR is inside a git work tree; choose another BENCH_DIR" >&2; exit 1 ;;
esac

if [ -f "$MARKER" ] && [ -d "$TREE" ]; then
  echo "corpus: ready at $TREE" >&2
else
  mkdir -p "$BENCH_DIR"
  rm -rf "$TREE" "$BENCH_DIR/.partial" "$MARKER"
  mkdir -p "$BENCH_DIR/.partial"
  echo "corpus: unpacking $TARBALL (takes a few minutes)" >&2
  tar -xJf "$TARBALL" -C "$BENCH_DIR/.partial"
  mv "$BENCH_DIR/.partial/linux-source-6.1" "$TREE"
  rmdir "$BENCH_DIR/.partial"
  : >"$MARKER"
  echo "corpus: ready at $TREE" >&2
fi
echo "$TREE"
