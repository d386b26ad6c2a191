#!/usr/bin/env bash
# Builds joinbench's container image with buildah, without a registry: a
# static binary on an empty (scratch) image, run as the non-root user
# 65532, with the host's CA certificates (for --ssl-mode VERIFY_CA against
# a public CA) and a results volume at /results writable by that user.
# The image is committed to the local container storage (podman run sees
# it) and saved as an OCI archive, to load into a cluster or push to a
# registry (docs/scale-out.md). Run through "make image".
#
#   VERSION      version the binary reports (make passes git describe)
#   IMAGE        image name (default joinbench)
#   IMAGE_TAG    image tag (default: VERSION, made a valid tag)
#   IMAGE_ARCH   target architecture (default: the Go toolchain's)
#   ARCHIVE      OCI archive to write (default bin/joinbench-image.tar)
#   CA_BUNDLE    CA certificates to copy (default: the host's bundle)
set -euo pipefail
cd "$(dirname "$0")/.."

command -v buildah >/dev/null || {
	echo "image: buildah is missing: scripts/install-deps.sh image installs it" >&2
	exit 2
}

VERSION=${VERSION:-}
IMAGE=${IMAGE:-joinbench}
tag=${IMAGE_TAG:-${VERSION:-dev}}
tag=$(printf '%s' "$tag" | tr -c 'A-Za-z0-9_.-' '-') # "+dirty" and the like are not valid in a tag
ARCH=${IMAGE_ARCH:-$(go env GOARCH)}
ARCHIVE=${ARCHIVE:-bin/joinbench-image.tar}
if [[ -z ${CA_BUNDLE:-} ]]; then
	for f in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt /etc/ssl/cert.pem; do
		[[ -r $f ]] && CA_BUNDLE=$f && break
	done
fi
[[ -r ${CA_BUNDLE:-} ]] || {
	echo "image: no CA certificate bundle found: install ca-certificates or set CA_BUNDLE" >&2
	exit 2
}

stage=$(mktemp -d -t joinbench-image-XXXXXX)
ctr=
cleanup() {
	[[ -n $ctr ]] && buildah rm "$ctr" >/dev/null 2>&1
	rm -rf "$stage"
}
trap cleanup EXIT

# The root file system beside the binary: the users (so that the user
# 65532 has a name and a home, as on distroless), /tmp, and the folders
# that user owns.
mkdir -p "$stage/root/etc/ssl/certs" "$stage/root/tmp" "$stage/owned/results" "$stage/owned/home"
chmod 1777 "$stage/root/tmp"
chmod 0755 "$stage/owned/results" "$stage/owned/home"
cp "$CA_BUNDLE" "$stage/root/etc/ssl/certs/ca-certificates.crt"
cat >"$stage/root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
PASSWD
cat >"$stage/root/etc/group" <<'GROUP'
root:x:0:
nonroot:x:65532:
GROUP

echo "image: build joinbench $VERSION for linux/$ARCH" >&2
CGO_ENABLED=0 GOOS=linux GOARCH=$ARCH go build -trimpath \
	-ldflags "-s -w -X main.version=$VERSION" -o "$stage/root/usr/local/bin/joinbench" ./cmd/joinbench

revision=$(git rev-parse HEAD 2>/dev/null || true)
ctr=$(buildah from scratch)
buildah copy --quiet "$ctr" "$stage/root" / >/dev/null
buildah copy --quiet --chown 65532:65532 "$ctr" "$stage/owned/results" /results >/dev/null
buildah copy --quiet --chown 65532:65532 "$ctr" "$stage/owned/home" /home/nonroot >/dev/null
buildah config \
	--os linux --arch "$ARCH" \
	--user 65532:65532 \
	--env HOME=/home/nonroot \
	--workingdir /results \
	--volume /results \
	--entrypoint '["/usr/local/bin/joinbench"]' \
	--cmd '["--help"]' \
	--label org.opencontainers.image.title=joinbench \
	--label "org.opencontainers.image.description=Finds join performance regressions in MySQL-family servers" \
	--label "org.opencontainers.image.version=$VERSION" \
	--label "org.opencontainers.image.revision=$revision" \
	--label org.opencontainers.image.source=https://github.com/joinbench/joinbench \
	--label org.opencontainers.image.licenses=Apache-2.0 \
	"$ctr"
buildah commit --quiet --rm "$ctr" "$IMAGE:$tag" >/dev/null
ctr=

mkdir -p "$(dirname "$ARCHIVE")"
rm -f "$ARCHIVE"
buildah push --quiet "$IMAGE:$tag" "oci-archive:$ARCHIVE:$IMAGE:$tag"
echo "image: $IMAGE:$tag (local storage: localhost/$IMAGE:$tag), saved as $ARCHIVE" >&2
