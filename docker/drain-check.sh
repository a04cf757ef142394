#!/usr/bin/env bash
# Measures the SIGTERM drain of the image: starts it with host networking and a
# throwaway volume, holds two SMTP sessions open (one idle after EHLO, one in a
# transaction after MAIL FROM), then times `docker stop -t 10`. Passes when the
# container is gone within 10 s with exit code 0.
#
#   docker/drain-check.sh [IMAGE]          (default mail-appliance:dev, container-check's tag)
#
# Extra `docker run` arguments can come in CONTAINER_ENV, e.g. to move off busy ports:
#   CONTAINER_ENV="-e PORT=3900 -e SMTP_PORT=2925" docker/drain-check.sh
set -euo pipefail

IMAGE=${1:-mail-appliance:dev}
NAME=mailroom-drain-check
http_port=3000 smtp_port=25
# shellcheck disable=SC2086
for arg in ${CONTAINER_ENV:-}; do
  case "$arg" in
    PORT=*) http_port=${arg#PORT=} ;;
    SMTP_PORT=*) smtp_port=${arg#SMTP_PORT=} ;;
  esac
done

vol=$(mktemp -d)
chmod 777 "$vol"
cleanup() {
  docker rm -f "$NAME" >/dev/null 2>&1 || true
  rm -rf "$vol"
}
trap cleanup EXIT

docker rm -f "$NAME" >/dev/null 2>&1 || true
# shellcheck disable=SC2086
docker run -d --name "$NAME" --network=host -v "$vol:/data" -e MAIL_HOSTNAME=drain.check.test \
  ${CONTAINER_ENV:-} "$IMAGE" >/dev/null

up=""
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$http_port/health" >/dev/null 2>&1 &&
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$smtp_port; IFS= read -r l <&3; [[ \$l == 220* ]]" 2>/dev/null; then
    up=1
    break
  fi
  sleep 0.5
done
[ -n "$up" ] || { echo "drain-check: the container did not come up"; docker logs "$NAME" | tail -20; exit 1; }

# Two SMTP sessions that stay open until the server closes them.
hold() { # $1: commands to send after the greeting
  exec 3<>"/dev/tcp/127.0.0.1/$smtp_port"
  IFS= read -r _ <&3
  printf '%b' "$1" >&3
  cat <&3 >/dev/null
}
(hold 'EHLO idle.drain.test\r\n') &
idle=$!
(hold 'EHLO busy.drain.test\r\nMAIL FROM:<a@drain.test>\r\n') &
busy=$!
sleep 1

start=$(date +%s%N)
docker stop -t 10 "$NAME" >/dev/null
ms=$((($(date +%s%N) - start) / 1000000))
code=$(docker inspect "$NAME" --format '{{.State.ExitCode}}')
wait "$idle" "$busy" 2>/dev/null || true

echo "drain-check: docker stop took $ms ms with 2 open SMTP sessions; exit code $code"
docker logs "$NAME" 2>&1 | grep -E '"event":"(supervisor_stopping|process_stopped|mta_stopped|mta_haraka_killed|process_kill|supervisor_stopped)"' |
  sed -E 's/.*"time":"([^"]+)".*"event":"([a-z_]+)".*/  \1 \2/'
if [ "$code" != 0 ] || [ "$ms" -ge 10000 ]; then
  echo "drain-check: FAILED (want exit code 0 within 10 s)"
  exit 1
fi
echo "drain-check: ok"
