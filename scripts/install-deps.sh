#!/usr/bin/env bash
# Installs what joinbench's demo and tests need and the machine lacks, from
# Debian's (or Ubuntu's) packages:
#
#   server   a MySQL-family server binary (mariadb-server) for sandboxes
#   galera   the Galera library, mariadb-backup and socat, for cluster
#            sandboxes (sandbox start --galera N)
#   browser  chromium, in which a test checks the HTML report
#   cc       gcc, so that the tests run under the race detector
#   image    buildah (make image), podman (to run the image), runc (the
#            runtime that starts containers on hosts with v1 or hybrid
#            cgroups) and skopeo (to inspect the archive and copy it to a
#            registry), and the CA certificates the image takes from the host
#   man      man-db, in which a test renders the man page
#   shells   zsh and fish, in which tests run the completion scripts (bash
#            is there already)
#   suite    MariaDB's own SQL test suite (mariadb-test-data), from which a
#            lint test extracts thousands of valid statements
#
# Usage: scripts/install-deps.sh server [galera] [browser] [cc] [image] [man] [shells] [suite]
# As root with apt-get it installs; otherwise it prints the command to run
# and exits 2 when the server is missing (nothing can run without one), 0
# otherwise (the rest is optional outside CI).
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1 || [[ -x /usr/sbin/$1 || -x /usr/local/sbin/$1 ]]; }

missing=()
for want in "$@"; do
	case $want in
	server) have mariadbd || have mysqld || missing+=(mariadb-server) ;;
	galera)
		[[ -e /usr/lib/galera/libgalera_smm.so || -e /usr/lib/libgalera_smm.so ]] || missing+=(galera-4)
		have mariadb-backup || missing+=(mariadb-backup)
		have socat || missing+=(socat)
		have haproxy || missing+=(haproxy)
		;;
	browser) have chromium || have chromium-browser || missing+=(chromium fonts-liberation) ;;
	cc) have gcc || missing+=(gcc libc6-dev) ;;
	image)
		have buildah || missing+=(buildah)
		have podman || missing+=(podman)
		have skopeo || missing+=(skopeo)
		# crun, podman's default runtime, refuses hosts whose cgroups are v1
		# or hybrid; the image test runs runc there (deploy/image_e2e_test.go)
		have runc || missing+=(runc)
		[[ -e /etc/ssl/certs/ca-certificates.crt ]] || missing+=(ca-certificates)
		;;
	man) have man || missing+=(man-db) ;;
	shells)
		have zsh || missing+=(zsh)
		have fish || missing+=(fish)
		;;
	suite) [[ -d /usr/share/mysql/mysql-test/main ]] || missing+=(mariadb-test-data) ;;
	prometheus) have prometheus || missing+=(prometheus) ;; # a test scrapes a run with it (docs/metrics.md)
	*)
		echo "install-deps: unknown part $want (want server, galera, browser, cc, image, man, shells, suite or prometheus)" >&2
		exit 2
		;;
	esac
done
((${#missing[@]})) || exit 0

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
	echo "installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	exit 0
fi
echo "missing: install with: sudo apt-get install ${missing[*]}" >&2
for p in "${missing[@]}"; do
	[[ $p == mariadb-server ]] && exit 2
done
exit 0
