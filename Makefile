# flt: build, install and uninstall. The build is Swift's; this only copies its results.
#
#   make                      release build (.build/release/flt), again whenever a source changed
#   make install              to /usr/local: the binary, the man page, bash/zsh/fish completions
#   make install PREFIX=~/.local
#   make uninstall PREFIX=...
#   make test                 what CI runs: swift test

PREFIX ?= /usr/local
# The binary to install: built in release mode unless named.
FLT ?= .build/release/flt
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: all build install uninstall test

# The default binary is built every time (swift build is incremental: a changed source is
# rebuilt, nothing else), so that install never copies a stale build. A named FLT is taken as
# it is.
ifeq ($(FLT),.build/release/flt)
BUILD = build
endif

all: build

build:
	swift build -c release --product flt

install: $(BUILD)
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 "$(FLT)" "$(BINDIR)/flt"
	"$(FLT)" --help-man > "$(MANDIR)/flt.1"
	"$(FLT)" --completions bash > "$(BASHDIR)/flt"
	"$(FLT)" --completions zsh > "$(ZSHDIR)/_flt"
	"$(FLT)" --completions fish > "$(FISHDIR)/flt.fish"

uninstall:
	rm -f "$(BINDIR)/flt" "$(MANDIR)/flt.1" "$(BASHDIR)/flt" "$(ZSHDIR)/_flt" "$(FISHDIR)/flt.fish"

test:
	swift test
