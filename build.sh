#!/usr/bin/env bash
# Builds, demonstrates and tests the Template Extractor browser extension.
#   ./build.sh [build]  wasm core + glue -> dist/chrome, dist/firefox and their store zips (without Check benchmarks)
#   ./build.sh demo     build, serve www/ on 127.0.0.1, run the extension in headless
#                       Chromium on /news/index.html, print the summary, write screenshots
#   ./build.sh lint     cargo fmt --check, clippy -D warnings (native and wasm32), ESLint
#   ./build.sh test     lint, native tests, wasm-bindgen tests, Chromium and Firefox e2e tests
#   ./build.sh package  build, web-ext lint, then the two store zips and the source
#                       archive for review in dist/store/ (see BUILDING.md)
#   ./build.sh serve-bench SET_DIR [PORT_BASE]
#                       serves every site of a benchmark set on its own 127.0.0.1 port
#                       (8700, 8701, ...); the index is at /__tex_index.json on each
#   ./build.sh bench SET_DIR [--out FILE] [--browser chromium|firefox]
#                       Check benchmarks in headless Chromium or Firefox (the extension's
#                       results page), compared with the native CLI; writes the JSON report
#   ./build.sh perf SET_DIR [--runs N] [--no-synthetic] [--out FILE] [--browser chromium|firefox]
#                       click vs limit (fetch + parse of the pages the click
#                       loaded) per key page and on synthetic pages, in Chromium or Firefox
#   ./build.sh wheel    the Python package (PyO3 + maturin, one abi3 wheel) -> target/wheels,
#                       installed into the venv target/pyenv with its test tools
#   ./build.sh collect-bench SET_DIR
#                       accuracy of `tex collect` per site beside the key-page method, a
#                       text-frequency baseline, trafilatura and Readability (docs/collection.md)
#   ./build.sh robust   unpacks ../shared/bench/robust into target/robust (if needed), then
#                       `tex robust`: self-agreement, degenerate evidence and key page vs
#                       collection on that unlabelled corpus; writes target/robust.json
#   ./build.sh collect-speed SET_DIR
#                       throughput and peak memory of `tex collect` beside trafilatura
#   ./build.sh serve-growth [ROUNDS]
#                       `tex collect` (default, --fast, --selective) and a template memory's
#                       recall on sites of 1,000 to 199,900 siblings per page, beside `tex extract`:
#                       ratios and growth exponents in siblings (examples/serve_growth.rs)
#   ./build.sh perf SET_DIR --memory [--runs N] [--out FILE]
#                       the known-template click (template memory, 0 loads)
#                       and its F1 beside the full extraction's, in Chromium
#                       and Firefox
# Installs whatever is missing (idempotent); traffic only ever goes to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
export PATH="$HOME/.cargo/bin:$PATH"
WASM_BINDGEN_VERSION=0.2.130
TARGET=wasm32-unknown-unknown
# Without reference types (target-cpu=mvp) wasm-bindgen keeps JS objects in a
# JS-side heap instead of a second wasm table, which wasm2js cannot translate.
# The features wasm-opt can lower for wasm2js are turned back on: with
# bulk memory a copy is one `memory.copy`, not a loop of loads and stores.
WASM_RUSTFLAGS="-C target-cpu=mvp -C target-feature=+bulk-memory,+sign-ext,+nontrapping-fptoint,+mutable-globals"
WASM_TARGET_DIR=$ROOT/target/wasm-mvp
PKG=$ROOT/target/extension-pkg
BIN=$ROOT/node_modules/.bin
FEATURES="--enable-bulk-memory --enable-sign-ext --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue"

# Each step's start (seconds into the run), so that a test run can end by
# saying where its time went: CI's limit is on the whole.
STEPS=()
log() {
  STEPS+=("$SECONDS $*")
  printf '\n== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2
}
step_times() {
  local i start next
  printf '\n== where the %dm%02ds went (seconds per step)\n' $((SECONDS / 60)) $((SECONDS % 60)) >&2
  for i in "${!STEPS[@]}"; do
    start=${STEPS[i]%% *}
    next=$SECONDS; ((i + 1 < ${#STEPS[@]})) && next=${STEPS[i + 1]%% *}
    printf '%6d  %s\n' $((next - start)) "${STEPS[i]#* }" >&2
  done
}

apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  if ((${#missing[@]})); then
    log "apt-get install ${missing[*]}"
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

ensure_build_tools() {
  rustup target list --installed 2>/dev/null | grep -qx "$TARGET" || { log "rustup target add $TARGET"; rustup target add "$TARGET"; }
  local component
  for component in clippy rustfmt; do
    rustup component list --installed 2>/dev/null | grep -q "^$component" || { log "rustup component add $component"; rustup component add "$component"; }
  done
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
    log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION"
    cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION"
  fi
  if [ ! -x "$BIN/wasm-opt" ] || [ ! -x "$BIN/esbuild" ] || [ ! -x "$BIN/eslint" ] || [ ! -d node_modules/selenium-webdriver ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

ensure_browsers() {
  apt_install chromium chromium-driver firefox-esr zip
  # Translations of the browsers' own UI, for the tests in Spanish.
  apt_install chromium-l10n firefox-esr-l10n-es-es
  command -v geckodriver >/dev/null || [ -x "$HOME/.cargo/bin/geckodriver" ] || { log "cargo install geckodriver"; cargo install geckodriver; }
}

build() {
  ensure_build_tools
  log "cargo build --target $TARGET (core + browser glue)"
  RUSTFLAGS="$WASM_RUSTFLAGS" cargo build --lib --release --target "$TARGET" --target-dir "$WASM_TARGET_DIR"
  rm -rf "$PKG" && mkdir -p "$PKG"
  # The standard library is prebuilt with reference types; dropping the
  # feature section lets wasm-bindgen see what our own code uses.
  "$BIN/wasm-opt" $FEATURES --strip-target-features "$WASM_TARGET_DIR/$TARGET/release/template_extractor.wasm" -o "$PKG/core.wasm"
  log "wasm-bindgen $WASM_BINDGEN_VERSION"
  wasm-bindgen --target no-modules --no-typescript --out-dir "$PKG" --out-name tex "$PKG/core.wasm"
  # The one patch of wasm-bindgen's glue: no option (nor a second --target,
  # which would duplicate the glue) exposes its imports and finalisation, and
  # wasm2js's exports must be finalised like an instance's.
  local entry='return Object.assign(__wbg_init, { initSync }, exports);'
  grep -qF "$entry" "$PKG/tex.js" || { echo "wasm-bindgen glue has an unexpected shape" >&2; exit 1; }
  sed -i "s|$entry|return Object.assign(__wbg_init, { initSync, initFromExports: (make) => __wbg_finalize_init({ exports: make(__wbg_get_imports()) }, undefined) }, exports);|" "$PKG/tex.js"
  log "wasm-opt and wasm2js (binaryen from npm)"
  "$BIN/wasm-opt" -O3 $FEATURES "$PKG/tex_bg.wasm" -o "$PKG/tex_bg.opt.wasm"
  mv "$PKG/tex_bg.opt.wasm" "$PKG/tex_bg.wasm"
  "$BIN/wasm-opt" $FEATURES --llvm-memory-copy-fill-lowering --llvm-nontrapping-fptoint-lowering --signext-lowering "$PKG/tex_bg.wasm" -o "$PKG/lowered.wasm"
  # Optimised for size: the asm.js copy serves only pages whose CSP forbids
  # WebAssembly, and addons-linter (AMO's review) refuses to parse a script
  # above 5 MiB, which -O3's inlining reached.
  "$BIN/wasm2js" -Oz "$PKG/lowered.wasm" -o "$PKG/asm.mjs"
  node scripts/wasm2js-classic.mjs "$PKG/asm.mjs" "$PKG/tex_asm.js"

  # Icons from one SVG, but for 16 px: icon-16.svg draws it on the pixel grid (the toolbar's size).
  apt_install librsvg2-bin
  mkdir -p "$PKG/icons"
  for size in 32 48 96 128; do rsvg-convert -w $size -h $size extension/icons/icon.svg -o "$PKG/icons/icon-$size.png"; done
  rsvg-convert -w 16 -h 16 extension/icons/icon-16.svg -o "$PKG/icons/icon-16.png"

  local commit; commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  git diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
  printf '{"commit":"%s","wasm_bindgen":"%s","rustc":"%s","built":"%s"}\n' "$commit" "$WASM_BINDGEN_VERSION" \
    "$(rustc --version | awk '{print $2}')" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$PKG/build-info.json"

  for browser in chrome firefox; do
    local out=dist/$browser
    rm -rf "$out" && mkdir -p "$out"
    cp -r extension/. "$out/"
    cp "$PKG/tex.js" "$PKG/tex_bg.wasm" "$PKG/tex_asm.js" "$PKG/tex_asm_data.js" "$PKG/build-info.json" "$out/"
    cp "$PKG"/icons/*.png "$out/icons/"
    node scripts/manifest.mjs "$browser" "$out"
    # The zips are what a store gets: without the evaluators' Check benchmarks.
    node scripts/store-copy.mjs "$out" "target/store-$browser"
    rm -f "dist/template-extractor-$browser.zip"
    (cd "target/store-$browser" && zip -q -X -r "$ROOT/dist/template-extractor-$browser.zip" .)
  done
  log "built dist/chrome, dist/firefox (with Check benchmarks), dist/template-extractor-{chrome,firefox}.zip (store packages)"
}

demo() {
  ensure_browsers
  build
  log "demo: the native CLI on the www/ demo site"
  cargo run --release --quiet --bin tex -- extract www news/index.html --json target/demo-extract.json
  log "demo: the extension in headless Chromium on the www/ demo site"
  node tests/e2e/demo.mjs
}

serve_bench() {
  local set=${1:?usage: $0 serve-bench SET_DIR [PORT_BASE]} base=${2:-8700}
  cargo build --release --quiet --bin tex-serve
  log "serving $set on 127.0.0.1 from port $base (Ctrl-C stops)"
  exec target/release/tex-serve "$set" --port-base "$base"
}

bench() {
  local set=${1:?usage: $0 bench SET_DIR [--out FILE] [--browser chromium|firefox]}
  shift
  ensure_browsers
  build
  log "Check benchmarks on $set ($*)"
  node scripts/bench.mjs "$set" "$@"
}

perf() {
  local set=${1:?usage: $0 perf SET_DIR [--runs N] [--no-synthetic] [--out FILE] [--browser chromium|firefox]}
  shift
  ensure_browsers
  build
  log "perf: click vs limit in a headless browser on $set ($*)"
  node scripts/perf.mjs "$set" "$@"
}

PYENV=$ROOT/target/pyenv

# The venv of the Python package's tests and the collection benchmarks, and
# Java for PySpark; reinstalled only when python/requirements-dev.txt changes.
ensure_python() {
  apt_install python3-venv
  command -v java >/dev/null || apt_install default-jre-headless
  [ -x "$PYENV/bin/python" ] || { log "python3 -m venv $PYENV"; python3 -m venv "$PYENV"; }
  if ! cmp -s python/requirements-dev.txt "$PYENV/.requirements"; then
    log "pip install -r python/requirements-dev.txt"
    "$PYENV/bin/pip" install -q --upgrade pip
    "$PYENV/bin/pip" install -q -r python/requirements-dev.txt
    cp python/requirements-dev.txt "$PYENV/.requirements"
  fi
}

wheel() {
  ensure_python
  log "maturin build (python/: the abi3 wheel)"
  rm -rf target/wheels
  # A target folder of its own: python/ is a workspace of its own, and
  # sharing the main folder (129-152 s of the suite instead of 185 s) broke
  # a second `./build.sh test` in the same checkout once (the core's types
  # lacked the wheel's serde::Serialize), which a fresh build did not repeat.
  "$PYENV/bin/maturin" build --release --quiet -m python/Cargo.toml --target-dir target/python -o target/wheels
  "$PYENV/bin/pip" install -q --force-reinstall --no-deps target/wheels/*.whl
}

# After `cargo test`, whose debug build of tex is the CLI the Spark output
# is compared with (a release build would add minutes of LTO to CI).
python_tests() {
  wheel
  cargo build --release --quiet --bin tex
  log "PySpark and Ray Data examples in local mode on the dev set, against tex collect"
  "$PYENV/bin/python" python/tests/test_engines_match_cli.py target/release/tex ../shared/bench/dev target/engines-test
  log "WARC files written by wget and warcio from dev sites served on 127.0.0.1, through tex collect"
  apt_install wget
  "$PYENV/bin/python" python/tests/test_real_warcs.py target/release/tex ../shared/bench/dev target/real-warcs-test
}

collect_bench() {
  local set=${1:?usage: $0 collect-bench SET_DIR}
  ensure_python
  cargo build --release --quiet --bin tex
  "$PYENV/bin/python" scripts/collection_peers.py "$set" target/collection-peers.json
  target/release/tex collect-bench "$set" --peers target/collection-peers.json --json target/collection-bench.json
}

collect_speed() {
  local set=${1:?usage: $0 collect-speed SET_DIR}
  ensure_python
  cargo build --release --quiet --bin tex
  "$PYENV/bin/python" scripts/collection_speed.py target/release/tex "$set" target/collection-speed
}

serve_growth() {
  cargo build --release --quiet --bin tex
  cargo run --release --quiet --example serve_growth -- "${CARGO_TARGET_DIR:-target}/release/tex" "$@"
}

# The unlabelled robustness corpus (not in CI: the corpus may be absent).
robust() {
  local corpus=../shared/bench/robust
  [ -x "$corpus/unpack.sh" ] || { echo "$corpus/unpack.sh is missing: the robustness corpus is not on this machine." >&2; exit 1; }
  log "unpack $corpus into target/robust"
  "$corpus/unpack.sh" target/robust
  log "tex robust target/robust"
  cargo run --release --quiet --bin tex -- robust target/robust --json target/robust.json
}

lint() {
  ensure_build_tools
  log "cargo fmt --check"
  cargo fmt --check
  (cd tests/web && cargo fmt --check)
  log "clippy -D warnings (native, all targets)"
  cargo clippy --all-targets --quiet -- -D warnings
  log "clippy -D warnings ($TARGET: the core and the browser glue in src/wasm)"
  cargo clippy --lib --target "$TARGET" --quiet -- -D warnings
  log "cargo fmt --check, clippy -D warnings (python/: the Python package)"
  (cd python && cargo fmt --check && CARGO_TARGET_DIR="$ROOT/target" cargo clippy --quiet -- -D warnings)
  log "ESLint (extension, scripts, e2e tests)"
  "$BIN/eslint" extension scripts tests/e2e eslint.config.mjs
}

run_tests() {
  trap step_times EXIT
  log "test: lint, build, then the native, Python, wasm and end-to-end tests"
  lint
  log "html5ever: the patch series re-applies to the pinned release (scripts/html5ever.sh check)"
  scripts/html5ever.sh check
  ensure_browsers
  build
  # The native tests run optimised, with debug assertions and overflow
  # checks kept: unoptimised, the collection tests on 200,000-sibling pages
  # and the dev-set tests took seven of CI's minutes. Their release builds
  # (tex for the e2e comparisons, the Python wheel) skip whole-program LTO:
  # it is for speed, which no test measures, and costs minutes of CI on two
  # cores. The extension's wasm, built above, keeps it.
  export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true
  log "cargo test --release (native, with debug assertions and overflow checks)"
  cargo test --release
  python_tests
  log "wasm-bindgen tests (headless Chromium and Firefox)"
  wasm_tests
  log "end-to-end tests (Chromium and Firefox)"
  node --test --test-reporter=spec --test-concurrency=1 tests/e2e/
}

wasm_tests() {
  local gecko; gecko=$(command -v geckodriver || echo "$HOME/.cargo/bin/geckodriver")
  # tests/web is a crate of its own: the main crate's binaries are native-only.
  local env=(CARGO_TARGET_DIR="$ROOT/target/web-tests" CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner)
  (cd tests/web && env "${env[@]}" CHROMEDRIVER="$(command -v chromedriver)" cargo test --target "$TARGET" --test browser)
  (cd tests/web && env "${env[@]}" GECKODRIVER="$gecko" cargo test --target "$TARGET" --test browser)
}

package() {
  build
  local store=dist/store version; version=$(node -p "require('./dist/firefox/manifest.json').version")
  rm -rf "$store" && mkdir -p "$store"
  log "web-ext lint (Firefox store build)"
  "$BIN/web-ext" lint --source-dir target/store-firefox --self-hosted=false --warnings-as-errors
  log "store zips"
  "$BIN/web-ext" build --source-dir target/store-firefox --artifacts-dir "$store" --filename "template-extractor-firefox-$version.zip" --overwrite-dest
  (cd target/store-chrome && zip -q -X -r "$ROOT/$store/template-extractor-chrome-$version.zip" .)
  log "source archive for review (git archive of HEAD)"
  git diff --quiet HEAD || log "warning: uncommitted changes are not in the source archive"
  git archive --format=zip --prefix="template-extractor-$version/" -o "$store/template-extractor-source-$version.zip" HEAD
  log "wrote $(ls "$store" | tr '\n' ' ')"
}

# Every cargo build of the package compiles jemalloc (tex's allocator) from
# C, which needs make beside the C compiler rustc links with.
command -v make >/dev/null || apt_install make

case "${1:-build}" in
  build) build ;;
  demo) demo ;;
  lint) lint ;;
  test) run_tests ;;
  package) package ;;
  serve-bench) shift; serve_bench "$@" ;;
  bench) shift; bench "$@" ;;
  perf) shift; perf "$@" ;;
  wheel) wheel ;;
  collect-bench) shift; collect_bench "$@" ;;
  collect-speed) shift; collect_speed "$@" ;;
  serve-growth) shift; serve_growth "$@" ;;
  robust) robust ;;
  *) echo "usage: $0 [build|demo|lint|test|package|wheel|robust|collect-bench SET_DIR|collect-speed SET_DIR|serve-growth [ROUNDS]|serve-bench SET_DIR [PORT_BASE]|bench SET_DIR [--out FILE] [--browser chromium|firefox]|perf SET_DIR [--runs N]]" >&2; exit 2 ;;
esac
