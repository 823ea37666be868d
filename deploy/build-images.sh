#!/usr/bin/env bash
# Builds the images deploy/docker-compose.yml runs, from local files only (no registry,
# nothing pulled):
#
#   chorus image  FROM scratch + chorus, chorus-mcp-math, chorus-mcp-date from
#                 target/<profile> + the shared libraries `ldd` names + the loader, and
#                 for the compose setup's secrets (docs/deploy.md, "Security"): /bin/sh,
#                 openssl, cat, mkdir, chmod, chown, tr, mv, rm from this machine and
#                 deploy/images/{chorus-init-secrets,with-redis-password}
#   redis image   FROM scratch + this machine's redis-server and redis-cli the same way,
#                 /bin/sh, getent, sleep, timeout, tr and deploy/images/redis-cli-as (TLS + ACL
#                 user), redis-cluster-node and redis-cluster-create (the Cluster of
#                 deploy/docker-compose.cluster.yml)
#   prometheus    FROM scratch + this machine's prometheus and promtool (Debian's
#     image       package) and its web assets; the settings are deploy/prometheus/
#
#   deploy/build-images.sh [PROFILE]       PROFILE: release (default) or debug;
#                                          also CHORUS_PROFILE
#
# Env: CHORUS_IMAGE (chorus:latest), REDIS_IMAGE (redis:7-bookworm), PROMETHEUS_IMAGE
# (chorus-prometheus:latest) — the tags the compose
# file uses, so `docker-compose up` runs unchanged; CARGO_TARGET_DIR (target); CHORUS_BIN
# (a directory holding the three binaries, overrides PROFILE). Missing binaries are built
# with cargo; a missing redis-server or prometheus is installed with apt-get.
# The published image is deploy/Dockerfile (standard base images; needs a registry).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
here=$root/deploy

profile=${1:-${CHORUS_PROFILE:-release}}
chorus_image=${CHORUS_IMAGE:-chorus:latest}
redis_image=${REDIS_IMAGE:-redis:7-bookworm}
prometheus_image=${PROMETHEUS_IMAGE:-chorus-prometheus:latest}
bins=(chorus chorus-mcp-math chorus-mcp-date)

say() { echo "build-images: $*" >&2; }
die() { say "error: $*"; exit 1; }

docker info >/dev/null 2>&1 || die "no Docker engine reachable (docker info failed)"

# --- the Chorus binaries -------------------------------------------------------------
target=${CARGO_TARGET_DIR:-$root/target}
case "$target" in /*) ;; *) target=$root/$target ;; esac
bin_dir=${CHORUS_BIN:-$target/$profile}
missing=0
for b in "${bins[@]}"; do [ -x "$bin_dir/$b" ] || missing=1; done
if [ "$missing" = 1 ]; then
  [ -z "${CHORUS_BIN:-}" ] || die "CHORUS_BIN=$CHORUS_BIN lacks one of: ${bins[*]}"
  case "$profile" in
    debug) flag=() ;;
    release) flag=(--release) ;;
    *) flag=(--profile "$profile") ;;
  esac
  say "binaries missing in $bin_dir; running cargo build --locked --workspace --bins ${flag[*]}"
  (cd "$root" && cargo build --locked --workspace --bins "${flag[@]}")
fi

# --- redis-server, redis-cli and prometheus from this machine ------------------------
# apt_install COMMAND PACKAGE: installs PACKAGE when COMMAND is missing.
apt_install() {
  command -v "$1" >/dev/null 2>&1 && return 0
  say "$1 missing; installing $2 with apt-get"
  local sudo=(); [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$2" >/dev/null
}
apt_install redis-server redis-server
apt_install redis-cli redis-tools
apt_install prometheus prometheus

work=$(mktemp -d "${TMPDIR:-/tmp}/chorus-images.XXXXXX")
trap 'rm -rf "$work"' EXIT

# add_elf ROOTFS FILE DEST: copies FILE to ROOTFS/DEST and every library `ldd` lists
# (and the dynamic loader) to the same path under ROOTFS, following symlinks.
add_elf() {
  local rootfs=$1 file=$2 dest=$3 lib
  install -D -m 0755 "$(readlink -f "$file")" "$rootfs$dest"
  ldd "$file" >/dev/null 2>&1 || return 0 # statically linked
  if ldd "$file" | grep 'not found' >/dev/null; then die "$file: a library is missing: $(ldd "$file" | grep 'not found')"; fi
  while read -r lib; do
    [ -e "$rootfs$lib" ] && continue
    mkdir -p "$rootfs$(dirname "$lib")"
    cp -L "$lib" "$rootfs$lib"
  done < <(ldd "$file" | grep -oE '/[^[:space:]]+' | sort -u)
}

# common_files ROOTFS UID NAME HOME: users, name resolution, CA certificates, /tmp.
common_files() {
  local rootfs=$1 uid=$2 name=$3 home=$4
  mkdir -p "$rootfs/etc" "$rootfs/tmp" "$rootfs$home"
  chmod 1777 "$rootfs/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\n%s:x:%s:%s::%s:/sbin/nologin\n' \
    "$name" "$uid" "$uid" "$home" >"$rootfs/etc/passwd"
  printf 'root:x:0:\n%s:x:%s:\n' "$name" "$uid" >"$rootfs/etc/group"
  printf 'hosts: files dns\n' >"$rootfs/etc/nsswitch.conf"
  if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  fi
}

revision=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)

# build IMAGE DOCKERFILE CONTEXT: docker build without pulling anything.
# The image the tag named before is removed when the new build leaves it untagged and no
# container uses it, so rebuilds do not pile up images.
build() {
  local image=$1 dockerfile=$2 ctx=$3 old new
  cp "$dockerfile" "$ctx/Dockerfile"
  old=$(docker image inspect -f '{{.Id}}' "$image" 2>/dev/null || true)
  DOCKER_BUILDKIT=0 docker build --pull=false -q -t "$image" \
    --label "org.opencontainers.image.source=chorus" \
    --label "org.opencontainers.image.revision=$revision" \
    "$ctx" >/dev/null 2>"$work/build.err" || { cat "$work/build.err" >&2; die "docker build $image failed"; }
  new=$(docker image inspect -f '{{.Id}}' "$image")
  if [ -n "$old" ] && [ "$old" != "$new" ] &&
    [ "$(docker image inspect -f '{{len .RepoTags}}' "$old" 2>/dev/null)" = 0 ]; then
    docker rmi "$old" >/dev/null 2>&1 || true
  fi
}

start=$(date +%s)

# add_tools ROOTFS TOOL...: this machine's /bin/sh as /bin/sh and each TOOL in /usr/local/bin.
add_tools() {
  local rootfs=$1 t p
  shift
  add_elf "$rootfs" "$(readlink -f /bin/sh)" /bin/sh
  for t in "$@"; do
    p=$(command -v "$t") || die "$t missing on this machine (needed in the images)"
    add_elf "$rootfs" "$p" "/usr/local/bin/$t"
  done
}

ctx=$work/chorus
for b in "${bins[@]}"; do add_elf "$ctx/rootfs" "$bin_dir/$b" "/usr/local/bin/$b"; done
add_tools "$ctx/rootfs" openssl cat mkdir chmod chown tr mv rm
ssl_cnf=$(openssl version -d | sed -E 's/^OPENSSLDIR: "(.*)"$/\1/')/openssl.cnf
install -D -m 0644 "$(readlink -f "$ssl_cnf")" "$ctx/rootfs$ssl_cnf"
install -m 0755 "$here/images/chorus-init-secrets" "$here/images/with-redis-password" "$ctx/rootfs/usr/local/bin/"
common_files "$ctx/rootfs" 10001 chorus /nonexistent
build "$chorus_image" "$here/images/chorus.Dockerfile" "$ctx"
say "$chorus_image from $bin_dir ($(du -sh "$ctx/rootfs" | cut -f1))"

ctx=$work/redis
add_elf "$ctx/rootfs" "$(command -v redis-server)" /usr/local/bin/redis-server
add_elf "$ctx/rootfs" "$(command -v redis-cli)" /usr/local/bin/redis-cli
add_tools "$ctx/rootfs" getent sleep timeout tr
install -m 0755 "$here/images/redis-cli-as" "$here/images/redis-cluster-node" \
  "$here/images/redis-cluster-create" "$ctx/rootfs/usr/local/bin/"
common_files "$ctx/rootfs" 999 redis /data
rmdir "$ctx/rootfs/data"
mkdir -p "$ctx/data"
build "$redis_image" "$here/images/redis.Dockerfile" "$ctx"
say "$redis_image from $(command -v redis-server) ($(redis-server --version | grep -oE 'v=[^ ]+'))"

ctx=$work/prometheus
add_elf "$ctx/rootfs" "$(command -v prometheus)" /usr/local/bin/prometheus
add_elf "$ctx/rootfs" "$(command -v promtool)" /usr/local/bin/promtool
if [ -d /usr/share/prometheus/web ]; then
  mkdir -p "$ctx/rootfs/usr/share/prometheus"
  cp -rL /usr/share/prometheus/web "$ctx/rootfs/usr/share/prometheus/"
fi
common_files "$ctx/rootfs" 65534 nobody /prometheus
rmdir "$ctx/rootfs/prometheus"
mkdir -p "$ctx/data"
build "$prometheus_image" "$here/images/prometheus.Dockerfile" "$ctx"
say "$prometheus_image from $(command -v prometheus) ($(prometheus --version 2>&1 | head -1 | grep -oE 'version [^ ]+'))"

# The images must run: the binaries find their libraries and start.
docker run --rm "$chorus_image" chorus --help >/dev/null || die "$chorus_image: chorus --help failed"
docker run --rm "$chorus_image" chorus-mcp-math --version >/dev/null || die "$chorus_image: chorus-mcp-math failed"
docker run --rm "$chorus_image" chorus-mcp-date --version >/dev/null || die "$chorus_image: chorus-mcp-date failed"
docker run --rm "$redis_image" redis-server --version >/dev/null || die "$redis_image: redis-server failed"
docker run --rm "$redis_image" redis-cli --version >/dev/null || die "$redis_image: redis-cli failed"
docker run --rm "$chorus_image" openssl version >/dev/null || die "$chorus_image: openssl failed"
docker run --rm "$chorus_image" sh -c 'tr a b </dev/null && cat /dev/null' || die "$chorus_image: sh/coreutils failed"
docker run --rm "$redis_image" sh -c 'exit 0' || die "$redis_image: sh failed"
docker run --rm "$redis_image" sh -c 'getent hosts localhost >/dev/null && sleep 0 && timeout 5 tr a b </dev/null' ||
  die "$redis_image: getent/sleep/timeout/tr failed"
docker run --rm "$prometheus_image" --version >/dev/null 2>&1 || die "$prometheus_image: prometheus --version failed"
docker run --rm --entrypoint promtool "$prometheus_image" --version >/dev/null 2>&1 || die "$prometheus_image: promtool failed"
say "done in $(($(date +%s) - start))s: $chorus_image, $redis_image, $prometheus_image"
