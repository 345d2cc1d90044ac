# The README's two commands are `make run` (build and start the main job) and `make test`.
# Swift is often installed outside the default PATH (here: /opt/swift).
export PATH := $(PATH):/opt/swift/usr/bin

SWIFT ?= swift
DEMO_TRACE ?= Traces/demo.trace
HWDB_FIXTURE := .build/fixtures/60-sensor.hwdb

.PHONY: deps build release run test demo-trace clean

deps:
	scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product orientd

# The main job. Until the daemon lands, it classifies the demo trace and prints every change.
run: release
	.build/release/orientd classify $(DEMO_TRACE)

test: deps $(HWDB_FIXTURE)
	$(SWIFT) test

$(HWDB_FIXTURE):
	scripts/fetch-hwdb.sh $@

# Regenerates the demo trace (a minute of a person turning a tablet, at 50 Hz).
demo-trace:
	$(SWIFT) run -c release scenario-trace --rate 50 --seconds 60 --seed 1 > $(DEMO_TRACE)

clean:
	rm -rf .build
