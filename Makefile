# mcp-switchboard: two commands.
#   make demo   builds everything, converts the bundled Home Assistant
#               catalog to Gemini, then runs an MCP session against the
#               gateway in front of the simulated home (js/demo.mjs)
#   make test   runs every test (CI runs this through .ci/run)
# Everything they need is installed from this repository's own files.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
WASM_BINDGEN := $(shell sed -n 's/^wasm-bindgen = { version = "=\([^"]*\)".*/\1/p' Cargo.toml)
# node_modules/.bin goes last: it holds the conformance suite's Node 22 (the
# `node` devDependency), and everything else runs on the machine's Node.
# js/build.mjs runs npm's binaryen wasm-opt by its path (Debian's older
# wasm-opt emits modules that crash on load).
export PATH := $(HOME)/.cargo/bin:$(PATH):$(CURDIR)/node_modules/.bin

CARGO_FUZZ := 0.13.2
# libFuzzer needs nightly; without it (a CI machine that cannot fetch one)
# the fuzz targets still run over their seeds and regressions in cargo test
HAVE_NIGHTLY := $(shell rustup toolchain list 2>/dev/null | grep -q '^nightly' && echo yes)

.PHONY: demo test tools build chromium test-rust test-wasm test-js test-conformance test-py test-fuzz test-homey soak

demo: build
	node js/demo.mjs

test: build test-rust test-wasm test-js test-py test-fuzz test-homey

tools:
	rustup target add wasm32-unknown-unknown
	@if [ "$$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $(WASM_BINDGEN)" ]; then \
		echo "installing wasm-bindgen-cli $(WASM_BINDGEN) (a few minutes, once)"; \
		cargo install wasm-bindgen-cli --version $(WASM_BINDGEN); \
	fi
	npm ci --no-audit --no-fund
	@[ -x .venv/bin/python ] || python3 -m venv .venv
	.venv/bin/pip install -q --disable-pip-version-check -r tests/py/requirements.txt
	@if [ "$(HAVE_NIGHTLY)" = yes ] && [ "$$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $(CARGO_FUZZ)" ]; then \
		echo "installing cargo-fuzz $(CARGO_FUZZ) (a few minutes, once)"; \
		cargo install cargo-fuzz --version $(CARGO_FUZZ) --locked || echo "cargo-fuzz could not be installed: the libFuzzer runs will be skipped"; \
	fi

build: tools
	node js/build.mjs

test-rust:
	cargo fmt --all -- --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --all-targets --features full,web -- -D warnings
	cargo clippy --all-targets --target wasm32-unknown-unknown --features full,web -- -D warnings
	cargo clippy --lib --target wasm32-unknown-unknown --features js -- -D warnings
	cargo clippy --lib --target wasm32-unknown-unknown --features web-module -- -D warnings
	cargo test

test-wasm:
	cargo test --target wasm32-unknown-unknown --test wasm --test html_wasm

# every node --test suite in tests/js/: the package, the CLI, the MCP gateway
# (SDK client over HTTP and stdio, upstream SDK servers, security, the MCP
# Inspector CLI) and the MCP conformance suite (on Node 22)
# Debian's Chromium for the browser test (playwright-core drives it; nothing
# downloads a browser)
chromium:
	@command -v chromium >/dev/null || { \
		echo "installing Debian's chromium for the browser test"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null || \
		{ $$SUDO apt-get update -q >/dev/null && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; }; }

test-js: chromium
	node --test tests/js/
	node tests/bench/convert.mjs --quick
	node tests/bench/gateway.mjs --quick
	node tests/bench/validate.mjs --quick
	node tests/bench/search.mjs --quick
	node tests/bench/soak.mjs --quick
	node tests/bench/html.mjs --quick
	node tests/bench/conversation.mjs --quick

# a short libFuzzer run of every fuzz target (5 s each) when nightly and
# cargo-fuzz are here; fuzz/run.sh --runs 10000000 is the long run
test-fuzz:
	@if [ "$(HAVE_NIGHTLY)" = yes ] && cargo fuzz --version >/dev/null 2>&1; then \
		fuzz/run.sh 5; \
	else \
		echo "test-fuzz: no nightly toolchain or cargo-fuzz: libFuzzer runs skipped (the targets ran over their seeds in cargo test)"; \
	fi

# the 10-minute soak of serve --demo (BENCHMARKS.md); make test runs its --quick mode
soak: build
	nice -n 10 node tests/bench/soak.mjs

# the MCP conformance suite alone (also part of test-js)
test-conformance:
	node --test tests/js/conformance.test.mjs

test-py:
	.venv/bin/python tests/py/check_dialects.py

# The Homey app (homey-app/): its test tools from homey-app/test/package.json
# (the Homey CLI, which needs Node 24, and Node 18), the package packed from
# pkg/ (npm pack: the app store refuses symlinked folders), the app's tests
# on Node 18 and 22 (the settings page in Chromium on 22 only: playwright
# needs Node 20), then `homey app validate` at the publish and verified
# levels and `homey app build` (all offline). The generated app.json must be the
# committed one.
HOMEY_TOOLS := $(CURDIR)/homey-app/test/node_modules
HOMEY := NO_UPDATE_NOTIFIER=1 $(HOMEY_TOOLS)/node24/bin/node $(HOMEY_TOOLS)/homey/bin/homey.js

test-homey: build chromium
	npm ci --prefix homey-app/test --no-audit --no-fund
	rm -rf homey-app/.build && mkdir -p homey-app/.build
	cd homey-app/.build && npm pack ../../pkg --silent >/dev/null && mv mcp-switchboard-*.tgz mcp-switchboard.tgz
	npm ci --prefix homey-app --no-audit --no-fund
	$(HOMEY_TOOLS)/node18/bin/node --test homey-app/test/*.test.mjs
	$(CURDIR)/node_modules/node/bin/node --test homey-app/test/*.test.mjs homey-app/test/browser/*.test.mjs
	cd homey-app && $(HOMEY) app validate --level publish
	cd homey-app && $(HOMEY) app validate --level verified
	cd homey-app && $(HOMEY) app build
	git diff --exit-code -- homey-app/app.json
