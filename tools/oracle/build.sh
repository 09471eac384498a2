#!/bin/bash
# Build the Go oracle: lay out kubelet v1.21.4 (vendored unchanged by kubeedge/kubeedge at one commit)
# from a fetched git directory, copy our driver and hook files in, build offline.
#
#   tools/oracle/build.sh            -> $ORACLE_WORK/bin/oracle
#
# ORACLE_WORK      scratch folder (default .cache/oracle, git-ignored)
# ORACLE_KUBEEDGE  git directory holding the kubeedge commit (default /work/.mirror/kubeedge+kubeedge/repo)
# ORACLE_GO        the Go 1.19 bin folder (default /usr/lib/go-1.19/bin)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
COMMIT=f5a90933b2b4a16a7cc0d63bf426d0c04846b1ef
W=${ORACLE_WORK:-$PWD/.cache/oracle}
GITDIR=${ORACLE_KUBEEDGE:-/work/.mirror/kubeedge+kubeedge/repo}
GOBIN=${ORACLE_GO:-/usr/lib/go-1.19/bin}

if [ ! -x "$GOBIN/go" ]; then
  echo "oracle: Go 1.19 is missing at $GOBIN (install it: apt-get install golang-1.19-go, or set ORACLE_GO)" >&2
  exit 2
fi
if ! git --git-dir="$GITDIR" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
  echo "oracle: kubeedge commit $COMMIT is missing at $GITDIR (get it: git clone --bare https://github.com/kubeedge/kubeedge <dir>, then set ORACLE_KUBEEDGE=<dir>)" >&2
  exit 2
fi

mkdir -p "$W"
tree=$W/kubeedge
if [ ! -f "$tree/.oracle-tree-$COMMIT" ]; then
  # Lay out into a new folder, then move it in place: a failed layout leaves no half tree.
  rm -rf "$W/kubeedge.new" "$tree"
  mkdir -p "$W/kubeedge.new"
  # Two large files the build does not need (a C amalgamation and a swagger spec) are left out.
  git --git-dir="$GITDIR" ls-tree -r --name-only "$COMMIT" \
    | grep -v -e '^vendor/github.com/mattn/go-sqlite3/sqlite3-binding.c$' -e '/v1204/swagger.json$' > "$W/paths"
  xargs -a "$W/paths" -d '\n' git --git-dir="$GITDIR" --literal-pathspecs archive "$COMMIT" -- \
    | tar -x -i -C "$W/kubeedge.new"
  touch "$W/kubeedge.new/.oracle-tree-$COMMIT"
  mv "$W/kubeedge.new" "$tree"
fi

# Our files (re-copied every build so that an edit here is always what is built).
rm -rf "$tree/hack/oracle"
cp -r "$here/go/hack/oracle" "$tree/hack/oracle"
for d in "$here"/go/hooks/*/; do
  pkg=$(basename "$d")
  # A "+" in a hook folder's name is a "/" of the package's path (volumemanager+reconciler).
  case $pkg in
    kubelet) dest=$tree/vendor/k8s.io/kubernetes/pkg/kubelet ;;
    *) dest=$tree/vendor/k8s.io/kubernetes/pkg/kubelet/${pkg//+//} ;;
  esac
  cp "$d"/zz_oracle_*.go "$dest/"
done

export PATH=$GOBIN:$PATH GOCACHE=$W/gocache GOPATH=$W/gopath GOFLAGS=-mod=vendor GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local
mkdir -p "$W/bin"
start=$(date +%s)
(cd "$tree" && go build -mod=vendor -o "$W/bin/oracle.new" ./hack/oracle)
mv "$W/bin/oracle.new" "$W/bin/oracle"
rm -rf "$tree/hack/fmtcheck"
cp -r "$here/go/hack/fmtcheck" "$tree/hack/fmtcheck"
(cd "$tree" && go build -mod=vendor -o "$W/bin/fmtcheck" ./hack/fmtcheck)
echo "oracle: built $W/bin/oracle in $(( $(date +%s) - start ))s" >&2
