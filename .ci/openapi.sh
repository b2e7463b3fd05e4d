#!/usr/bin/env bash
# OpenAPI check of /openapi.json as the service serves it (internal/tools/openapiclient/openapi.json, which a
# test there keeps equal to the served document):
#   - @redocly/cli (installed from npm into the git-ignored .tools/) lints it with its recommended rules: 0 errors
#     and 0 warnings (.redocly.lint-ignore.yaml names the places where the wire is right, and why);
#   - the Go client oapi-codegen generates from it (client.gen.go, committed) is what the generator gives today,
#     compiles, and in a test against the real handler looks a company up and decodes the report and an error
#     envelope. The generator and its runtime need Go 1.26, so they live in that module, not in the library's.
set -euo pipefail
cd "$(dirname "$0")/.."

REDOCLY_VERSION=2.77.0
dir=.tools/redocly

command -v node >/dev/null || { echo "openapi: node is required (Node >= 20.19)"; exit 1; }
command -v npm >/dev/null || { echo "openapi: npm is required"; exit 1; }

mkdir -p "$dir"
if [ "$(node -p "try{require('./$dir/node_modules/@redocly/cli/package.json').version}catch{''}")" != "$REDOCLY_VERSION" ]; then
  [ -f "$dir/package.json" ] || echo '{"name":"redocly-lint","private":true}' >"$dir/package.json"
  timeout 300 npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "@redocly/cli@$REDOCLY_VERSION"
fi

(
  cd internal/tools/openapiclient
  cp go.mod /tmp/openapiclient-go.mod.bak; cp go.sum /tmp/openapiclient-go.sum.bak
  go mod tidy
  if ! diff -q go.mod /tmp/openapiclient-go.mod.bak >/dev/null || ! diff -q go.sum /tmp/openapiclient-go.sum.bak >/dev/null; then
    echo "internal/tools/openapiclient: go.mod/go.sum are not tidy"; git --no-pager diff -- go.mod go.sum; exit 1
  fi
  go vet ./...
  go test -race ./...
  go generate ./...
  if ! git diff --quiet -- client.gen.go; then
    echo "internal/tools/openapiclient: client.gen.go is not what oapi-codegen generates from openapi.json:"
    git --no-pager diff --stat -- client.gen.go; exit 1
  fi
)

# Exits non-zero when there is an error; a warning fails the check too. What the linter reports that is the
# truth of the wire (ambiguous paths, documents that answer no 4XX) is ignored place by place, each with its
# reason, in .redocly.lint-ignore.yaml, which redocly reads from this directory.
lint_status=0
lint=$(NO_UPDATE_NOTIFIER=1 timeout 120 "$dir/node_modules/.bin/redocly" lint internal/tools/openapiclient/openapi.json --format=stylish 2>&1) ||
  lint_status=$?
echo "$lint"
[ "$lint_status" -eq 0 ] || exit "$lint_status"
if grep -Eq 'You have [0-9]+ warnings?' <<<"$lint"; then
  echo "openapi: redocly reports warnings; fix them, or, where the wire is right, ignore them in .redocly.lint-ignore.yaml with the reason"
  exit 1
fi
