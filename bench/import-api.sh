#!/bin/sh
# Peak resident memory of `slink serve` during one import of a generated CSV of IMPORT_ROWS rows
# (default 200,000) through POST /api/v1/imports, on a fresh SQLite database. On SQLite `serve`
# is one process (its threads included in its figure); SERVE_ARGS="--workers 2" runs a primary
# and workers, each reported. IMPORT_DRY_RUN=1 makes it a dry run. Run after `npm run build`:
#   sh bench/import-api.sh
set -e
ROWS=${IMPORT_ROWS:-200000}
DIR=$(mktemp -d)
KEY=bench-import-key-0123456789abcdefghijklmnop
PORT=${IMPORT_PORT:-18734}
export DATABASE_URL="sqlite:$DIR/bench.db" PUBLIC_URL=http://short.test LOG_LEVEL=warn PORT HOST=127.0.0.1
node -e '
const out = require("fs").createWriteStream(process.argv[1]); const rows = Number(process.argv[2])
out.write("url,alias,title,created_at,clicks\n"); let s = ""
for (let i = 1; i <= rows; i++) { s += `https://example.com/page/${i}?ref=bench,a${i.toString(36)},"Page ${i}, imported",2024-01-01T00:00:00Z,${i % 50}\n`; if (i % 10000 === 0) { out.write(s); s = "" } }
out.end(s)' "$DIR/links.csv" "$ROWS"
node dist/cli/main.js user create --email bench@example.com --api-key "$KEY" > /dev/null
node dist/cli/main.js serve ${SERVE_ARGS:-} > "$DIR/serve.log" 2>&1 &
PID=$!
until curl -s -o /dev/null "http://127.0.0.1:$PORT/health"; do sleep 1; done
IDLE=$(grep VmRSS /proc/$PID/status | tr -s "\t " " ")
ID=$(curl -s -H "authorization: Bearer $KEY" -F source=csv -F "dry_run=${IMPORT_DRY_RUN:-0}" \
  -F "file=@$DIR/links.csv" "http://127.0.0.1:$PORT/api/v1/imports" | sed 's/.*"id":\([0-9]*\).*/\1/')
while :; do
  STATUS=$(curl -s -H "authorization: Bearer $KEY" "http://127.0.0.1:$PORT/api/v1/imports/$ID")
  case "$STATUS" in *'"status":"done"'* | *'"status":"failed"'*) break ;; esac
  sleep 2
done
echo "$STATUS" | sed 's/.*"status":"\([a-z]*\)".*"total":\([0-9]*\).*/\1, \2 rows/'
CHILDREN=$(pgrep -P $PID || true)
if [ -z "$CHILDREN" ]; then NAME="serve (one process)"; else NAME=primary; fi
echo "$NAME $(grep VmHWM /proc/$PID/status | tr -s '\t ' ' ') (before the upload: $IDLE)"
for child in $CHILDREN; do echo "worker $(grep VmHWM /proc/$child/status | tr -s '\t ' ' ')"; done
kill $PID
wait $PID || true
rm -rf "$DIR"
