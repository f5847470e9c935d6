# Confab — `make run` starts the app, `make test` installs what is missing, builds and runs every suite.

SWIFT       ?= swift
CONFIG      ?= debug
BUILD_DIR   := .build/$(CONFIG)
CALL        ?= default:standup
ARGS        ?=
# Tests treat any GLib/GTK/GStreamer critical as a crash.
TEST_ENV    := G_DEBUG=fatal-criticals

.PHONY: all deps test-deps build run test test-swift test-ui bench clean

all: build

deps:
	@meson-helpers/install-deps

test-deps:
	@meson-helpers/install-deps --with-test-tools

build: deps
	$(SWIFT) build -c $(CONFIG)

## The app, opened on the lobby of $(CALL). Add a test camera and microphone with ARGS=--test-devices.
run: build
	$(BUILD_DIR)/confab --call $(CALL) $(ARGS)

## Every suite: unit, GStreamer, server, and the real app under Xvfb through AT-SPI.
test: test-deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory test-swift test-ui

test-swift:
	$(TEST_ENV) $(SWIFT) test --skip-build

test-ui:
	CONFAB_BIN=$(CURDIR)/.build/debug/confab CONFAB_ARTIFACTS=$(CURDIR)/.build/ui-artifacts \
	  dbus-run-session -- /usr/bin/python3 -m unittest discover -s Tests/UI -p 'test_*.py' -v

## Start-up time, preview fps, CPU and memory of the lobby (release build); prints numbers.
bench: test-deps
	$(SWIFT) build -c release --product confab
	dbus-run-session -- /usr/bin/python3 meson-helpers/bench-lobby --binary .build/release/confab

clean:
	rm -rf .build
