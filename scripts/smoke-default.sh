#!/usr/bin/env bash
# `npm start` with no environment at all: /health and the dashboard on :3000, an SMTP banner on
# :2525, and SIGTERM ends everything within 10 s. Uses a throwaway DATA_DIR by
# running from a temporary working directory (DATA_DIR defaults to ./data).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
env -i PATH="$PATH" HOME="$HOME" node "$root/dist/src/main.js" >"$work/out.log" 2>&1 &
pid=$!
ok=""
for _ in $(seq 1 150); do
  if curl -fsS http://127.0.0.1:3000/health >/dev/null 2>&1 &&
     banner=$(timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/2525; IFS= read -r line <&3; printf "%s" "$line"; printf "QUIT\r\n" >&3' 2>/dev/null) &&
     [[ "$banner" == 220* ]]; then ok=1; break; fi
  sleep 0.2
done
if [ -z "$ok" ]; then echo "smoke: appliance did not come up"; tail -n 40 "$work/out.log"; kill -9 "$pid" || true; exit 1; fi
echo "smoke: /health ok, banner: ${banner%%$'\r'*}"
# The dashboard (issues 19 and 30) at /app/, built by npm run build, under its CSP.
if ! curl -fsS -D "$work/headers" http://127.0.0.1:3000/app/ | grep -q '<div id="app">' ||
   ! grep -qi "^content-security-policy: default-src 'self'" "$work/headers"; then
  echo "smoke: the dashboard is not served at /app/"; kill -9 "$pid" || true; exit 1
fi
echo "smoke: dashboard served at /app/"
start=$(date +%s%N)
kill -TERM "$pid"
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then echo "smoke: still running 10 s after SIGTERM"; kill -9 "$pid"; exit 1; fi
wait "$pid" || { echo "smoke: non-zero exit"; tail -n 20 "$work/out.log"; exit 1; }
echo "smoke: stopped in $(( ($(date +%s%N) - start) / 1000000 )) ms"
[ -d "$work/data" ] && [ -f "$work/data/mail.db" ] && [ -f "$work/data/secret.key" ] || { echo "smoke: ./data not created"; exit 1; }
echo "smoke: ok"
