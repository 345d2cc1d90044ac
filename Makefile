# The README's two commands are `make run` (build and start the main job) and `make test`.
# Swift is often installed outside the default PATH (here: /opt/swift).
export PATH := $(PATH):/opt/swift/usr/bin

SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
# orientd-tablet-mode-switch, a link to the one binary that only its unit runs.
LIBEXECDIR = $(PREFIX)/libexec
DOCDIR = $(PREFIX)/share/doc/orientd
# systemd, udev and dbus-daemon look only in these, whatever PREFIX is.
UNITDIR ?= /etc/systemd/system
UDEVRULESDIR ?= /etc/udev/rules.d
SYSUSERSDIR ?= /etc/sysusers.d
DBUSPOLICYDIR ?= /usr/share/dbus-1/system.d
# polkitd reads actions from this folder only.
POLKITACTIONDIR ?= /usr/share/polkit-1/actions
# systemd --user units for every user (orientd-follow.service).
USERUNITDIR ?= /etc/systemd/user
# /usr/local/share/dbus-1/system-services is searched too, so this one follows PREFIX.
DBUSSERVICEDIR ?= $(PREFIX)/share/dbus-1/system-services
SYSCONFDIR ?= /etc
MANDIR ?= $(PREFIX)/share/man
# Where Debian's bash-completion, zsh and fish look for completions shipped by packages.
BASHCOMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(PREFIX)/share/zsh/vendor-completions
FISHCOMPLETIONDIR ?= $(PREFIX)/share/fish/vendor_completions.d

DEMO_TRACE ?= Traces/demo.trace
FOLD_TRACE ?= Traces/fold.trace
RUN_DIR ?= $(CURDIR)/.build/run
HWDB_FIXTURE := .build/fixtures/60-sensor.hwdb
# systemd-hwdb, for the calibrate tests: they compile the hwdb file it writes and look the sensor up.
HWDB_TOOL := .build/fixtures/systemd-hwdb
# The Swift runtime linked in: 20.7-21.0 MB resident with 100 subscribers, against 23.6-23.8 MB dynamically linked.
# Linked by the toolchain's lld, with relative relocations packed (DT_RELR) and without exporting every symbol
# (the static runtime's default): 19.2-19.5 MB against 20.6 MB (BENCHMARKS.md, "Memory of the daemon").
# Each function in a section of its own (-function-sections), so that the link order below can move it.
RELEASE_FLAGS = -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --no-export-dynamic -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections
# The daemon's link order: the functions it runs while serving first, packed (lld moves each function's own
# section), so that what stays resident after start is those pages and few others (BENCHMARKS.md, "Memory").
# `make order-file` regenerates it; names that no longer exist are skipped, new functions land after the packed ones.
ORDER_FILE = Release/orientd.order
# The daemon is also linked position-dependent (-no-pie): the loader then relocates nothing in it, so 0.6 MB less
# is anonymous memory and its constants stay the file's pages, which it gives back after start. What that gives up
# (the randomised address of its own image) is in BENCHMARKS.md; orientctl stays position-independent.
NO_PIE = -Xswiftc -Xclang-linker -Xswiftc -no-pie
DAEMON_FLAGS = -Xlinker --symbol-ordering-file=$(CURDIR)/$(ORDER_FILE) -Xlinker --no-warn-symbol-ordering $(NO_PIE)

.PHONY: all deps test-deps build release order-file run test check-units docs check-docs install uninstall demo-trace \
	plot-demo fold-trace plot-fold clean

# `make` alone builds what `make install` installs: the release binary, its manuals and completions. As yourself,
# then `sudo make install PREFIX=/usr`, which copies them and runs no Swift as root.
all: release docs

# What the build needs and nothing more: on Debian the missing build packages, with apt-get; elsewhere a check with
# pkg-config that names what is missing for dnf and pacman. No service, user or locale is touched
# (scripts/build-deps.sh says what and why).
deps:
	SWIFT=$(SWIFT) scripts/build-deps.sh

# What `make test` needs besides: the test-only Debian packages, the system user orientd the tests run the daemon
# as, and the fr_FR.UTF-8 locale (scripts/test-deps.sh). It runs scripts/build-deps.sh first.
test-deps:
	SWIFT=$(SWIFT) scripts/test-deps.sh

build: deps
	$(SWIFT) build

# One binary serves as both commands: orientd, and orientctl when called by that name (Sources/orientd/main.swift),
# installed as a link to it. One product, one set of flags: nothing is compiled twice, and a second `make release`
# with nothing changed takes seconds (BENCHMARKS.md, "The package").
release: deps
	# The build does not know the order file as an input: a newer one needs a new link.
	if [ $(ORDER_FILE) -nt .build/release/orientd ]; then rm -f .build/release/orientd; fi
	$(SWIFT) build $(RELEASE_FLAGS) $(DAEMON_FLAGS) --product orientd
	ln -sf orientd .build/release/orientctl

# Runs the release daemon under valgrind's callgrind while it serves (scripts/order-file.py says how) and writes
# the functions it ran to $(ORDER_FILE). A few minutes; run it after changes to what the daemon does while serving.
order-file:
	SWIFT=$(SWIFT) scripts/build-deps.sh valgrind
	$(SWIFT) build $(RELEASE_FLAGS) $(NO_PIE) --product orientd
	ln -sf orientd .build/release/orientctl
	scripts/order-file.py generate .build/release/orientd .build/release/orientctl $(ORDER_FILE)

# The main job: the daemon on the demo trace, looping, with its socket under .build/run. It runs until Ctrl-C;
# from another terminal: .build/release/orientctl --socket .build/run/orientd.sock monitor
run: release
	mkdir -p $(RUN_DIR)
	@echo "orientd on $(DEMO_TRACE); try: .build/release/orientctl --socket $(RUN_DIR)/orientd.sock monitor"
	.build/release/orientd run --replay $(DEMO_TRACE) --loop --config /dev/null \
		--socket $(RUN_DIR)/orientd.sock --state-directory $(RUN_DIR)/state

# The load suite (Tests/OrientdTests/Load) runs on its own after the others, one test at a time, so that its
# thousand clients do not compete with them for the machine.
test: test-deps $(HWDB_FIXTURE) $(HWDB_TOOL)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip LoadTests
	$(SWIFT) test --skip-build --no-parallel --filter LoadTests
	# Start, claim, subscribe, reload and stop the daemon on an emulated sensor, over and over: each run must end
	# in time with its documented status (RELIABILITY.md, "Stopping").
	Tests/Stress/stop_stress.py .build/debug/orientd .build/debug/orientctl --cycles 60 --seconds 120 --min-cycles 40
	# Package.swift declares every module a target imports.
	scripts/check-imports.py $(SWIFT)
	$(MAKE) check-units
	$(MAKE) check-docs

# systemd's own checks of the units, with ExecStart pointing at the debug build so that verify finds it.
check-units:
	$(SWIFT) build --product orientd
	mkdir -p .build/units
	sed -e 's|@BINDIR@|$(CURDIR)/.build/debug|' -e 's|@DOCDIR@|$(CURDIR)|' Systemd/orientd.service.in > .build/units/orientd.service
	cp Systemd/orientd.socket .build/units/
	systemd-analyze verify .build/units/orientd.service .build/units/orientd.socket
	systemd-sysusers --dry-run - < Systemd/orientd.sysusers
	systemd-analyze security --offline=true --threshold=15 .build/units/orientd.service | tail -n 1
	# The tablet-mode switch's keeper, the one unit that may write /dev/uinput: 2.0 or less (issue 53), 0.5 here.
	ln -sf orientd .build/debug/orientd-tablet-mode-switch
	sed -e 's|@LIBEXECDIR@|$(CURDIR)/.build/debug|' -e 's|@DOCDIR@|$(CURDIR)|' Systemd/orientd-tablet-mode-switch.service.in \
		> .build/units/orientd-tablet-mode-switch.service
	systemd-analyze verify .build/units/orientd-tablet-mode-switch.service
	systemd-analyze security --offline=true --threshold=20 .build/units/orientd-tablet-mode-switch.service | tail -n 1
	# The user unit, verified by a user manager of its own (which needs a runtime directory).
	$(SWIFT) build --product orientctl
	mkdir -p .build/units/user .build/units/xdg && chmod 700 .build/units/xdg
	sed -e 's|@BINDIR@|$(CURDIR)/.build/debug|' -e 's|@DOCDIR@|$(CURDIR)|' Systemd/orientd-follow.service.in > .build/units/user/orientd-follow.service
	XDG_RUNTIME_DIR=$(CURDIR)/.build/units/xdg systemd-analyze --user verify .build/units/user/orientd-follow.service

$(HWDB_FIXTURE):
	scripts/fetch-from-udev.sh hwdb.d/60-sensor.hwdb $@

$(HWDB_TOOL):
	scripts/fetch-from-udev.sh systemd-hwdb $@

# Manual pages and shell completions, generated from the commands' ArgumentParser definitions. The manuals
# come from ArgumentParser's generate-manual, the tool behind its GenerateManual plugin, run directly on the
# release binaries: the plugin would rebuild them without --static-swift-stdlib. `make test` generates them
# from the debug binaries and checks them (scripts/check-docs.sh).
DOCS_FROM ?= .build/release
# The manuals are dated by the last commit, not the day they were built, so that rebuilding changes nothing.
DOCS_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null)
docs:
	$(SWIFT) build --product generate-manual
	rm -rf .build/docs && mkdir -p .build/docs/man .build/docs/completions
	for tool in orientd orientctl; do \
		$$($(SWIFT) build --show-bin-path)/generate-manual $(DOCS_FROM)/$$tool --section 1 $(if $(DOCS_DATE),--date $(DOCS_DATE)) -o .build/docs/man || exit 1; \
		$(DOCS_FROM)/$$tool --generate-completion-script bash > .build/docs/completions/$$tool.bash || exit 1; \
		$(DOCS_FROM)/$$tool --generate-completion-script zsh > .build/docs/completions/_$$tool || exit 1; \
		$(DOCS_FROM)/$$tool --generate-completion-script fish > .build/docs/completions/$$tool.fish || exit 1; \
	done
	# The blank lines generate-manual leaves inside a subcommand's text become paragraph breaks, which groff
	# otherwise warns of; bash completions are sourced, never run, so they lose their #! line (lintian).
	sed -i 's/^$$/.Pp/' .build/docs/man/*.1
	sed -i '1{/^#!/d}' .build/docs/completions/*.bash

check-docs:
	$(SWIFT) build --product orientd
	$(SWIFT) build --product orientctl
	$(MAKE) docs DOCS_FROM=$$($(SWIFT) build --show-bin-path)
	scripts/check-docs.sh .build/docs $$($(SWIFT) build --show-bin-path)

# The folders `make install` puts files in. Those it has to make, and their parents that it makes with them, are
# recorded in INSTALL_RECORD (a line per folder: DESTDIR, a tab, the folder), so that `make uninstall` removes them
# again once they are empty, and no folder that was there before (/usr/local/bin, /etc/udev/rules.d), empty or not.
# orientd's own folders it removes when empty in any case.
INSTALL_FOLDERS = $(BINDIR) $(LIBEXECDIR) $(UNITDIR) $(USERUNITDIR) $(UDEVRULESDIR) $(SYSUSERSDIR) $(DBUSPOLICYDIR) $(DBUSSERVICEDIR) \
	$(POLKITACTIONDIR) $(SYSCONFDIR)/orientd $(DOCDIR) $(DOCDIR)/docs $(DOCDIR)/Systemd $(MANDIR)/man1 \
	$(BASHCOMPLETIONDIR) $(ZSHCOMPLETIONDIR) $(FISHCOMPLETIONDIR)
OWN_FOLDERS = $(SYSCONFDIR)/orientd $(DOCDIR)/docs $(DOCDIR)/Systemd $(DOCDIR)
INSTALL_RECORD = .build/install-record
# The documentation: the README and every file its links lead to (the installed package is checked for that,
# scripts/check-deb.sh), docs/*.md and docs/*.svg aside. Systemd/orientd.conf is the sample as shipped, which
# docs/configuration.md links to.
DOC_FILES = README.md PROTOCOL.md NEWS.md BENCHMARKS.md RELIABILITY.md LICENSE Systemd/orientd.conf
# Every file `make install` puts but the configuration /etc/orientd/orientd.conf, which `make uninstall` keeps when
# it was edited, and docs/*.md and docs/*.svg, which it removes as they are found installed.
INSTALLED_FILES = $(BINDIR)/orientd $(BINDIR)/orientctl $(LIBEXECDIR)/orientd-tablet-mode-switch \
	$(UNITDIR)/orientd.service $(UNITDIR)/orientd.socket $(UNITDIR)/orientd-tablet-mode-switch.service \
	$(USERUNITDIR)/orientd-follow.service $(UDEVRULESDIR)/80-orientd.rules $(SYSUSERSDIR)/orientd.conf \
	$(DBUSPOLICYDIR)/orientd.conf $(DBUSSERVICEDIR)/net.hadess.SensorProxy.service \
	$(POLKITACTIONDIR)/net.hadess.SensorProxy.policy $(addprefix $(DOCDIR)/,$(DOC_FILES)) \
	$(MANDIR)/man1/orientd.1 $(MANDIR)/man1/orientctl.1 $(BASHCOMPLETIONDIR)/orientd $(BASHCOMPLETIONDIR)/orientctl \
	$(ZSHCOMPLETIONDIR)/_orientd $(ZSHCOMPLETIONDIR)/_orientctl $(FISHCOMPLETIONDIR)/orientd.fish \
	$(FISHCOMPLETIONDIR)/orientctl.fish $(SYSCONFDIR)/orientd/orientd.conf.sample

# What `make install` copies is what `make` built; it is built here only when missing (a first `make install`, or the
# package's build, which makes the binary first), so that `sudo make install` after `make` needs no Swift on root's
# PATH and writes nothing in .build but the record below.
INSTALL_INPUTS = .build/release/orientd .build/docs/man/orientd.1
.build/release/orientd:
	$(MAKE) release
.build/docs/man/orientd.1:
	$(MAKE) docs

install: | $(INSTALL_INPUTS)
	mkdir -p $(dir $(INSTALL_RECORD))
	for folder in $(INSTALL_FOLDERS); do \
		while [ "$$folder" != / ] && [ ! -d "$(DESTDIR)$$folder" ]; do \
			printf '%s\t%s\n' "$(DESTDIR)" "$$folder"; folder=$$(dirname "$$folder"); \
		done; \
	done >> $(INSTALL_RECORD)
	install -d $(addprefix $(DESTDIR),$(INSTALL_FOLDERS))
	install -m 0755 -s .build/release/orientd $(DESTDIR)$(BINDIR)/
	ln -sf orientd $(DESTDIR)$(BINDIR)/orientctl
	ln -sf $(BINDIR)/orientd $(DESTDIR)$(LIBEXECDIR)/orientd-tablet-mode-switch
	sed -e 's|@BINDIR@|$(BINDIR)|' -e 's|@DOCDIR@|$(DOCDIR)|' Systemd/orientd.service.in > $(DESTDIR)$(UNITDIR)/orientd.service
	sed -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|' -e 's|@DOCDIR@|$(DOCDIR)|' Systemd/orientd-tablet-mode-switch.service.in \
		> $(DESTDIR)$(UNITDIR)/orientd-tablet-mode-switch.service
	install -m 0644 Systemd/orientd.socket $(DESTDIR)$(UNITDIR)/
	sed -e 's|@BINDIR@|$(BINDIR)|' -e 's|@DOCDIR@|$(DOCDIR)|' Systemd/orientd-follow.service.in > $(DESTDIR)$(USERUNITDIR)/orientd-follow.service
	install -m 0644 Systemd/80-orientd.rules $(DESTDIR)$(UDEVRULESDIR)/
	install -m 0644 Systemd/orientd.sysusers $(DESTDIR)$(SYSUSERSDIR)/orientd.conf
	install -m 0644 Systemd/orientd-dbus.conf $(DESTDIR)$(DBUSPOLICYDIR)/orientd.conf
	install -m 0644 Systemd/net.hadess.SensorProxy.service $(DESTDIR)$(DBUSSERVICEDIR)/
	install -m 0644 Systemd/net.hadess.SensorProxy.policy $(DESTDIR)$(POLKITACTIONDIR)/
	install -m 0644 README.md PROTOCOL.md NEWS.md BENCHMARKS.md RELIABILITY.md LICENSE $(DESTDIR)$(DOCDIR)/
	install -m 0644 Systemd/orientd.conf $(DESTDIR)$(DOCDIR)/Systemd/
	# The README's links lead to docs/, so the topic files go there too, with the plots they show.
	install -m 0644 docs/*.md docs/*.svg $(DESTDIR)$(DOCDIR)/docs/
	install -m 0644 .build/docs/man/orientd.1 .build/docs/man/orientctl.1 $(DESTDIR)$(MANDIR)/man1/
	for tool in orientd orientctl; do \
		install -m 0644 .build/docs/completions/$$tool.bash $(DESTDIR)$(BASHCOMPLETIONDIR)/$$tool; \
		install -m 0644 .build/docs/completions/_$$tool $(DESTDIR)$(ZSHCOMPLETIONDIR)/; \
		install -m 0644 .build/docs/completions/$$tool.fish $(DESTDIR)$(FISHCOMPLETIONDIR)/; \
	done
	# An existing configuration is kept; the sample goes beside it.
	if [ -e $(DESTDIR)$(SYSCONFDIR)/orientd/orientd.conf ]; then \
		install -m 0644 Systemd/orientd.conf $(DESTDIR)$(SYSCONFDIR)/orientd/orientd.conf.sample; \
	else \
		install -m 0644 Systemd/orientd.conf $(DESTDIR)$(SYSCONFDIR)/orientd/orientd.conf; \
	fi
	# The user and group must exist before udev, dbus-daemon and systemd read the files that name them.
	if [ -z "$(DESTDIR)" ]; then systemd-sysusers $(SYSUSERSDIR)/orientd.conf; fi
	@echo "installed; then: systemctl daemon-reload && systemctl enable --now orientd.socket && udevadm control --reload" \
		"&& udevadm trigger --action=add --subsystem-match=iio --subsystem-match=input && systemctl reload dbus"

# Removes what `make install` put, given the same PREFIX, DESTDIR and folder variables, and the folders it made once
# they are empty. An edited /etc/orientd/orientd.conf is kept, and so are the system user orientd and the service's
# state in /var/lib/orientd; it stops if orientd's units are enabled (scripts/uninstall.sh says why).
uninstall:
	@scripts/uninstall.sh "$(DESTDIR)" $(INSTALL_RECORD) $(SYSCONFDIR)/orientd/orientd.conf "$(OWN_FOLDERS)" \
		$(INSTALLED_FILES) '$(DOCDIR)/docs/*.md' '$(DOCDIR)/docs/*.svg'

# The Debian package (debian/), built with debhelper from the release binaries; the last line printed is the
# path of the .deb, under .build/deb. Install it with: apt-get install ./.build/deb/orientd_*.deb
.PHONY: deb check-deb
deb: release
	SWIFT=$(SWIFT) scripts/build-deps.sh debhelper
	scripts/build-deb.sh

# Builds the package, and the same build packaged as a later version (for the upgrade), runs lintian, installs it,
# checks it and the daemon it holds, upgrades, downgrades, removes and installs it again, and purges it
# (scripts/check-deb.sh says what, and how the machine is put back as it was).
check-deb: deb
	SWIFT=$(SWIFT) scripts/build-deps.sh lintian
	scripts/build-deb.sh --version-suffix +check1 --out .build/deb-next
	scripts/check-deb.sh $$(ls .build/deb/orientd_*.deb) $$(ls .build/deb-next/orientd_*.deb)

# `make install` and `make uninstall` with apt and dpkg really absent from PATH, against the same with them: the same
# files installed, all removed, an edited configuration kept; and the deps step's message off Debian
# (scripts/check-install.sh). Everything goes to temporary folders; seconds once the release build exists.
.PHONY: check-install check-make-run
check-install:
	scripts/check-install.sh

# The real `make run` on a fresh Debian machine played by recording stand-ins for apt-get, dpkg-query, pkg-config,
# systemctl, localedef, useradd, systemd-sysusers and others: it asks apt-get for build packages only, and calls
# nothing that changes a service, a user or a locale (scripts/check-make-run.sh). Needs root.
check-make-run:
	scripts/check-make-run.sh

# The real-kernel tests: Debian's own kernel booted with virtme-ng on this machine's files, orientd installed in the
# guest as make install installs it, and the kernel's own drivers fed by emulated hardware (a HID sensor hub through
# /dev/uhid, I2C parts through i2c-stub, uinput). scripts/test-kernel.sh runs them; TESTS picks some by name
# (make test-kernel TESTS=test_uinput). docs/development/testing.md says how to run one by hand.
.PHONY: test-kernel kernel-deps
kernel-deps:
	SWIFT=$(SWIFT) scripts/kernel-deps.sh

test-kernel: kernel-deps all
	scripts/test-kernel.sh $(TESTS)

# Regenerates the demo trace (a minute of a person turning a tablet, at 50 Hz).
demo-trace:
	$(SWIFT) run -c release scenario-trace --rate 50 --seconds 60 --seed 1 > $(DEMO_TRACE)

# Regenerates the plot of the demo trace in docs/traces-and-tools.md.
plot-demo:
	$(SWIFT) run orientd plot $(DEMO_TRACE) -o docs/demo-trace.svg

# Regenerates the convertible demo: a laptop folded into a tablet, turned through its four rotations, and opened
# again (both sensors, trace v2, from the convertible scenario suite), and its plot in docs/convertibles.md.
fold-trace:
	$(SWIFT) run scenario-trace --convertible folding-to-tablet-and-turning-it --rate 50 --seed 1 > $(FOLD_TRACE)

plot-fold:
	$(SWIFT) run orientd plot $(FOLD_TRACE) -o docs/fold-trace.svg

clean:
	rm -rf .build
