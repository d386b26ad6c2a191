# joinbench: make build | test | test-e2e | bench | demo | demo-galera | lint | docs | image | dist
GO          ?= go
# Outside a git clone VERSION is empty, and the binary takes its version
# from the Go build information instead (see internal/version).
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS     := -X main.version=$(VERSION)
BIN         := bin/joinbench
# Per package: the fast suite's take a few minutes; the end-to-end suite
# starts Galera clusters, crashes and restores them, tens of minutes on a
# busy 2-core machine under the race detector.
TEST_TIMEOUT ?= 15m
E2E_TIMEOUT ?= 40m
BENCHTIME   ?= 1s
IMAGE       ?= joinbench
IMAGE_TAG   ?= $(VERSION)
IMAGE_ARCH  ?=
DIST_PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64

.PHONY: all build test test-e2e bench demo demo-galera lint docs image dist clean

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/joinbench

# The fast suite: unit tests and single-server integration tests, under the
# race detector, in a few minutes. Integration tests use the server in
# JOINBENCH_TEST_DSN; when it is unset, scripts/test.sh starts a throwaway
# sandbox server for them (if mariadbd or mysqld is installed) and stops it
# afterwards. HOG=1 runs it beside a CPU hog on one core.
test: build
	TEST_TIMEOUT=$(TEST_TIMEOUT) scripts/test.sh

# The end-to-end suite: the tests in files built with the e2e tag (Galera
# clusters, crash and restore, slow nodes, the lessons, the image, the
# browser checks); tens of minutes. The image test needs
# JOINBENCH_TEST_IMAGE (make image; .ci/run builds one).
test-e2e: build
	TEST_TIMEOUT=$(E2E_TIMEOUT) scripts/test.sh e2e

bench:
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) ./...

# End-to-end demo on a sandbox server; see scripts/demo.sh.
demo: build
	scripts/demo.sh

# What a schema change, a large DELETE and a slow node cost a 3-node Galera
# cluster sandbox under load; see scripts/demo-galera.sh.
demo-galera: build
	scripts/demo-galera.sh

# The command reference docs/cli.md and the man page docs/joinbench.1 are
# generated from the --help texts: regenerate them after changing a
# command, a flag or a help text (tests in cmd/joinbench fail until then).
# After a merge conflict in either, take either side and run make docs.
docs: build
	$(BIN) lint --explain-rule all > docs/rules.md.tmp || { rm -f docs/rules.md.tmp; exit 1; }
	mv docs/rules.md.tmp docs/rules.md
	$(BIN) help --markdown > docs/cli.md.tmp || { rm -f docs/cli.md.tmp; exit 1; }
	mv docs/cli.md.tmp docs/cli.md
	$(BIN) man > docs/joinbench.1.tmp || { rm -f docs/joinbench.1.tmp; exit 1; }
	mv docs/joinbench.1.tmp docs/joinbench.1

# The container image, built with buildah (no registry needed): committed
# to the local container storage as $(IMAGE):$(IMAGE_TAG) and saved as the
# OCI archive bin/joinbench-image.tar; see scripts/image.sh and
# docs/scale-out.md.
image:
	VERSION="$(VERSION)" IMAGE="$(IMAGE)" IMAGE_TAG="$(IMAGE_TAG)" IMAGE_ARCH="$(IMAGE_ARCH)" scripts/image.sh

# Static binaries (no cgo) for every platform of DIST_PLATFORMS, with their
# SHA-256 sums, in dist/.
dist:
	rm -rf dist && mkdir -p dist
	@set -e; for p in $(DIST_PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; echo "dist: joinbench $(VERSION) for $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags "-s -w $(LDFLAGS)" \
			-o dist/joinbench-$$os-$$arch ./cmd/joinbench; \
	done
	cd dist && if command -v sha256sum >/dev/null; then sha256sum joinbench-*; else shasum -a 256 joinbench-*; fi > SHA256SUMS

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin dist
