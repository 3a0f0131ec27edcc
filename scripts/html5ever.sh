#!/usr/bin/env bash
# The vendored parser (vendor/html5ever/PATCH.md): an html5ever release from
# crates.io with the patch series vendor/html5ever/patches/NNNN-*.patch on top.
#
#   scripts/html5ever.sh update [VERSION]
#       Fetches html5ever VERSION (default: the pinned one, the version in
#       vendor/html5ever/Cargo.toml) from crates.io, applies the patches in
#       order and lays the result into vendor/html5ever (patches/ and PATCH.md
#       are kept). If a patch does not apply, says which and leaves
#       vendor/html5ever as it was. If VERSION is not the one the root
#       Cargo.toml asks for, rewrites that dependency line (html5ever = "VERSION").
#   scripts/html5ever.sh check
#       Rebuilds the pinned release plus the patches in a temporary folder and
#       diffs it against vendor/html5ever (without patches/ and PATCH.md):
#       exits 1 with the diff when they differ. build.sh test runs it.
#
# Vendoring keeps the crate as published (its normalized Cargo.toml included)
# less the files in DROPPED, which only upstream's own tests, benches and
# examples use, and the published crate's metadata. No patch does this; the
# script does. Nothing is written outside vendor/html5ever, the root
# Cargo.toml (update) and a temporary folder that is removed on exit; the
# release is downloaded by cargo into its usual registry cache.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
ROOT=$PWD
command -v cargo >/dev/null || export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"

VENDOR=vendor/html5ever
PATCHES=$VENDOR/patches
# Ours, not the release's: kept by update, left out of check's comparison.
OURS=(patches PATCH.md)
# In the published crate, not vendored.
DROPPED=(.cargo_vcs_info.json Cargo.toml.orig Cargo.lock benches data examples tests)

die() { printf 'html5ever.sh: %s\n' "$*" >&2; exit 1; }

# The version in vendor/html5ever/Cargo.toml's [package] section.
pinned_version() {
  local v
  v=$(awk -F'"' '/^\[/ { p = ($0 == "[package]") } p && /^version = "/ { print $2; exit }' "$VENDOR/Cargo.toml")
  [ -n "$v" ] || die "no version in $VENDOR/Cargo.toml"
  printf '%s\n' "$v"
}

# What a failed patch leaves: update says vendor/html5ever is as it was.
UNCHANGED=""

TMP=$(mktemp -d "${TMPDIR:-/tmp}/html5ever.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# release_crate VERSION: prints the path of html5ever-VERSION.crate in cargo's
# registry cache, fetched through a scratch project that depends on exactly
# that version (cargo downloads it when it is not there yet).
release_crate() {
  local version=$1 scratch=$TMP/scratch host sum crate
  mkdir -p "$scratch/src"
  printf '[package]\nname = "html5ever-fetch"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nhtml5ever = "=%s"\n\n[workspace]\n' \
    "$version" >"$scratch/Cargo.toml"
  : >"$scratch/src/lib.rs"
  host=$(rustc -vV | sed -n 's/^host: //p')
  (cd "$scratch" && cargo fetch --quiet --target "$host") || die "cargo could not fetch html5ever $version from crates.io"
  # The checksum cargo recorded for it picks the right file should the cache
  # hold copies from several registries.
  sum=$(awk -v v="$version" -F'"' '/^\[\[package\]\]/ { n = ""; ver = "" } /^name = / { n = $2 } /^version = / { ver = $2 }
        /^checksum = / && n == "html5ever" && ver == v { print $2; exit }' "$scratch/Cargo.lock")
  [ -n "$sum" ] || die "no checksum for html5ever $version in the scratch Cargo.lock"
  for crate in "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"html5ever-$version.crate"; do
    [ -f "$crate" ] && [ "$(sha256sum <"$crate" | cut -d' ' -f1)" = "$sum" ] && { printf '%s\n' "$crate"; return; }
  done
  die "html5ever-$version.crate (sha256 $sum) is not in cargo's registry cache"
}

# build_tree VERSION DIR: the release, less DROPPED, with every patch applied
# in order, in DIR.
build_tree() {
  local version=$1 tree=$2 crate patch name out where
  crate=$(release_crate "$version")
  mkdir -p "$tree"
  tar -xzf "$crate" -C "$tree" --strip-components=1 --no-same-owner
  (cd "$tree" && rm -rf -- "${DROPPED[@]}")
  # A repository of its own, so that git apply patches these files even when
  # the temporary folder lies inside another repository.
  git init -q "$tree"
  local patches=("$ROOT/$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch)
  [ -f "${patches[0]}" ] || die "no patches in $PATCHES"
  for patch in "${patches[@]}"; do
    name=${patch##*/}
    if ! out=$(git -C "$tree" apply --whitespace=nowarn "$patch" 2>&1); then
      where=$(printf '%s\n' "$out" | sed -n 's/^error: patch failed: //p' | head -n1)
      [ -n "$where" ] || where=$(printf '%s\n' "$out" | tail -n1)
      die "$name does not apply to html5ever $version ($where)$UNCHANGED"
    fi
  done
  rm -rf "$tree/.git"
}

# The files of vendor/html5ever that come from the release (not OURS), relative.
vendored_files() {
  local prune=() o
  for o in "${OURS[@]}"; do prune+=(-path "./$o" -prune -o); done
  (cd "$VENDOR" && find . "${prune[@]}" -type f -print | sed 's|^\./||' | sort)
}

check() {
  local version f
  version=$(pinned_version)
  build_tree "$version" "$TMP/html5ever-$version+patches"
  mkdir -p "$TMP/$VENDOR"
  vendored_files | while IFS= read -r f; do
    mkdir -p "$(dirname "$TMP/$VENDOR/$f")" && cp "$VENDOR/$f" "$TMP/$VENDOR/$f"
  done
  if ! (cd "$TMP" && diff -ru "html5ever-$version+patches" "$VENDOR"); then
    die "$VENDOR differs from html5ever $version with $PATCHES applied (the diff above); fix the files or the patches"
  fi
  echo "html5ever.sh: $VENDOR is html5ever $version with its $(find "$PATCHES" -name '[0-9][0-9][0-9][0-9]-*.patch' | wc -l) patches"
}

update() {
  local version=${1:-$(pinned_version)} tree f asked
  tree=$TMP/html5ever-$version
  UNCHANGED="; $VENDOR is unchanged"
  build_tree "$version" "$tree"
  # Files the new release no longer has go; changed ones are rewritten (with
  # a new mtime, so cargo rebuilds them); unchanged ones are left alone.
  vendored_files | while IFS= read -r f; do [ -e "$tree/$f" ] || rm -f "$VENDOR/$f"; done
  find "$VENDOR" -mindepth 1 -type d -empty -delete
  (cd "$tree" && find . -type f -print | sed 's|^\./||') | while IFS= read -r f; do
    cmp -s "$tree/$f" "$VENDOR/$f" || { mkdir -p "$(dirname "$VENDOR/$f")" && cp "$tree/$f" "$VENDOR/$f"; }
  done
  echo "html5ever.sh: $VENDOR is html5ever $version with its patches"
  asked=$(sed -n 's/^html5ever = "\([^"]*\)".*/\1/p' Cargo.toml | head -n1)
  if [ -z "$asked" ]; then
    echo "html5ever.sh: no html5ever = \"...\" line in Cargo.toml: set the dependency to $version by hand" >&2
  elif [ "$asked" != "$version" ]; then
    sed -i "s/^html5ever = \"$asked\"/html5ever = \"$version\"/" Cargo.toml
    echo "html5ever.sh: Cargo.toml now asks for html5ever \"$version\" (was \"$asked\"); the next cargo build updates Cargo.lock"
    [ "${asked%.*}" = "${version%.*}" ] ||
      echo "html5ever.sh: $version is not semver-compatible with $asked: scraper and markup5ever must ask for it too, or [patch.crates-io] does not reach them" >&2
  fi
}

case "${1:-}" in
  update) shift; [ $# -le 1 ] || die "usage: scripts/html5ever.sh update [VERSION]"; update "$@" ;;
  check) [ $# -eq 1 ] || die "usage: scripts/html5ever.sh check"; check ;;
  *) echo "usage: scripts/html5ever.sh update [VERSION] | check" >&2; exit 2 ;;
esac
