# joinbench: make build | test | bench | demo | demo-galera | lint | docs
GO          ?= go
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS     := -X main.version=$(VERSION)
BIN         := bin/joinbench
TEST_TIMEOUT ?= 10m
BENCHTIME   ?= 1s

.PHONY: all build test bench demo demo-galera lint docs clean

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/joinbench

# Unit and integration tests. Integration tests use the server in
# JOINBENCH_TEST_DSN; when it is unset, scripts/test.sh starts a throwaway
# sandbox server for them (if mariadbd or mysqld is installed) and stops it
# afterwards.
test: build
	TEST_TIMEOUT=$(TEST_TIMEOUT) scripts/test.sh

bench:
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) ./...

# End-to-end demo on a sandbox server; see scripts/demo.sh.
demo: build
	scripts/demo.sh

# What a schema change, a large DELETE and a slow node cost a 3-node Galera
# cluster sandbox under load; see scripts/demo-galera.sh.
demo-galera: build
	scripts/demo-galera.sh

# The command reference docs/cli.md is generated from the --help texts:
# regenerate it after changing a command, a flag or a help text (a test in
# cmd/joinbench fails until then). After a merge conflict in docs/cli.md,
# take either side and run make docs.
docs: build
	$(BIN) lint --explain all > docs/rules.md.tmp || { rm -f docs/rules.md.tmp; exit 1; }
	mv docs/rules.md.tmp docs/rules.md
	$(BIN) help --markdown > docs/cli.md.tmp || { rm -f docs/cli.md.tmp; exit 1; }
	mv docs/cli.md.tmp docs/cli.md

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin
