# Confab — `make run` starts the app, `make test` installs what is missing, builds and runs every suite.

SWIFT       ?= swift
CONFIG      ?= debug
BUILD_DIR   := .build/$(CONFIG)
ARGS        ?=
CALL        ?= default:standup
# `make run USER=bob` runs the app as bob; SERVER=ws://host:port uses a shared server.
SERVER      ?= ws://127.0.0.1:8630
# Tests treat any GLib/GTK/GStreamer critical as a crash.
TEST_ENV    := G_DEBUG=fatal-criticals

.PHONY: all deps test-deps build run stop-server test test-swift test-ui bench bench-media fuzz soak clean

all: build

deps:
	@meson-helpers/install-deps

test-deps:
	@meson-helpers/install-deps --with-test-tools

build: deps
	$(SWIFT) build -c $(CONFIG)
	meson-helpers/compile-translations .build/locale

## The app, connected to $(SERVER) (a local confab-server is started there if none answers).
## Opens the lobby of $(CALL) (CALL= opens the home page instead); add test devices with ARGS=--test-devices.
run: build
	SERVER=$(SERVER) CONFAB_RUN_USER=$(USER) meson-helpers/run-local $(BUILD_DIR) $(if $(CALL),--call $(CALL)) $(ARGS)

stop-server:
	@pid_file="$${XDG_STATE_HOME:-$$HOME/.local/state}/confab/server.pid"; \
	  if [ -f "$$pid_file" ]; then kill "$$(cat "$$pid_file")" 2>/dev/null || true; rm -f "$$pid_file"; echo "stopped"; fi

## Every suite: unit, GStreamer, server, and the real app under Xvfb through AT-SPI.
## The test build carries no debug information: a clean clone's build took 498 s with it and
## 400 s without (2 cores); a crash's backtrace still names the functions (the symbol table).
TEST_BUILD_FLAGS := -Xswiftc -gnone -Xcc -g0

## The end-to-end XCTests run alone, then the other XCTests beside the UI suites
## (meson-helpers/test-suites-together says why); `make test SERIAL=1` runs all in turn.
SERIAL ?=
test: test-deps
	$(SWIFT) build --build-tests $(TEST_BUILD_FLAGS)
	meson-helpers/compile-translations .build/locale
ifeq ($(SERIAL),1)
	$(MAKE) --no-print-directory test-swift test-ui
else
	MAKE="$(MAKE)" SWIFT="$(SWIFT)" meson-helpers/test-suites-together
endif

## SWIFT_TEST_ARGS picks suites, e.g. SWIFT_TEST_ARGS="--filter 'Ringing'".
test-swift:
	$(TEST_ENV) $(SWIFT) test --skip-build $(SWIFT_TEST_ARGS)

## The UI suites run inside a network namespace so the media test can reach Janus (see netns-run).
## UI_SUITES picks modules of Tests/UI (e.g. UI_SUITES="test_lobby test_calls"; all by default),
## UI_ARTIFACTS where their screenshots go. Each run has a runtime folder of its own: the
## accessibility bus's socket goes there (without one, in ~/.cache/at-spi, where a second run
## side by side would take it over).
UI_SUITES ?=
UI_ARTIFACTS ?= $(CURDIR)/.build/ui-artifacts
test-ui:
	runtime=$$(mktemp -d /tmp/confab-ui-runtime-XXXXXX) && trap 'rm -rf "$$runtime"' EXIT && \
	XDG_RUNTIME_DIR=$$runtime CONFAB_BIN=$(CURDIR)/.build/debug/confab CONFAB_ARTIFACTS=$(UI_ARTIFACTS) PYTHONPATH=$(CURDIR)/Tests/UI \
	  meson-helpers/netns-run -- dbus-run-session -- /usr/bin/python3 -m unittest \
	  $(if $(strip $(UI_SUITES)),$(UI_SUITES),discover -s Tests/UI -p 'test_*.py') -v

## Start-up time, preview fps, CPU and memory of the lobby (release build); prints numbers.
## Benchmarks print numbers, never assert: the lobby (start-up, preview fps, CPU, memory) and
## signalling (memory per connection, ring fan-out latency, joins per second), calls on
## shaped links (received fps, sizes, bitrate, freezes, audio), and the VP8 encoder's speed
## settings (CPU per frame and picture quality on the send ladder), and what drawing a call costs
## the main thread under GTK's cairo and GL renderers.
bench: test-deps
	$(SWIFT) build -c release --product confab
	$(SWIFT) build -c release --product confab-server
	dbus-run-session -- /usr/bin/python3 meson-helpers/bench-lobby --binary .build/release/confab
	/usr/bin/python3 meson-helpers/bench-signalling --binary .build/release/confab-server
	$(SWIFT) build -c release --product confab-peer
	/usr/bin/python3 meson-helpers/bench-network --binaries .build/release
	/usr/bin/python3 meson-helpers/bench-encoder
	meson-helpers/netns-run -- dbus-run-session -- /usr/bin/python3 meson-helpers/bench-drawing --binaries .build/release

## A call's media beside headless Chromium (issue 15; prints a table, asserts nothing): N confab
## apps, N Chromium pages on janus.js and N confab-peers on one Janus, for N = 2 and 4: CPU,
## footprint (PSS), join → first remote frame and received fps, and the ratios. See the script's
## header; e.g. make bench-media BENCH_MEDIA_ARGS="--seconds 10 --sizes 2".
BENCH_MEDIA_ARGS ?=
bench-media: test-deps
	$(SWIFT) build -c release --product confab
	$(SWIFT) build -c release --product confab-server
	$(SWIFT) build -c release --product confab-peer
	meson-helpers/netns-run -- dbus-run-session -- /usr/bin/python3 meson-helpers/bench-media --binaries .build/release $(BENCH_MEDIA_ARGS)

## Fuzzing (prints numbers): libFuzzer on the frame decoder, then a protocol-aware run against a
## live confab-server (see the scripts' headers). FUZZ_RUNS / FUZZ_FRAMES make them longer.
FUZZ_RUNS ?= 1000000
FUZZ_FRAMES ?= 100000
fuzz:
	$(SWIFT) build --product confab-server
	meson-helpers/fuzz-frame-decoder --runs $(FUZZ_RUNS)
	/usr/bin/python3 meson-helpers/fuzz-coordinator --frames $(FUZZ_FRAMES)

## A long four-party call with real media (prints RSS, CPU and frames each minute; see the
## script's header): make soak SOAK_MINUTES=10.
SOAK_MINUTES ?= 3
soak:
	$(SWIFT) build --product confab-server
	$(SWIFT) build --product confab-peer
	/usr/bin/python3 meson-helpers/soak --minutes $(SOAK_MINUTES)

clean:
	rm -rf .build
