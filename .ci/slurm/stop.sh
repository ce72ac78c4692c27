#!/usr/bin/env bash
# Stop the private SLURM cluster started by .ci/slurm/start.sh (unless another run uses it).
# Kills exactly the PIDs recorded in $STATE/pids/*.pid (never by name), in
# reverse start order: SIGTERM, up to 20 s grace, then SIGKILL.
# A PID is only signalled if its /proc/<pid>/comm is still the daemon we
# started (protection against PID reuse). Safe to run when nothing runs.
# Data (MariaDB accounting DB, SLURM state) stays in $STATE so a later
# start.sh is quick; `rm -rf /tmp/localbo-slurm` after stopping for a clean slate.
set -u
STATE=${LOCALBO_SLURM_STATE:-/tmp/localbo-slurm}
PIDS=$STATE/pids
LEASES=$STATE/leases

# A run that uses the cluster holds a lease ($LEASES/<its pid>, `.ci/run`); with LOCALBO_SLURM_LEASE
# set, this run gives its lease back, and the cluster stops only if no other live run holds one.
if [ -n "${LOCALBO_SLURM_LEASE:-}" ]; then
  rm -f "$LEASES/$LOCALBO_SLURM_LEASE"
  for lease in "$LEASES"/*; do
    [ -e "$lease" ] || continue
    if [ -d "/proc/$(basename "$lease")" ]; then
      echo "[slurm/stop] left running: run $(basename "$lease") still uses the cluster"
      exit 0
    fi
    rm -f "$lease"  # a run that died without giving its lease back
  done
fi

stop_one() { # stop_one NAME COMM
  local f=$PIDS/$1.pid pid i
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  if [ ! -d "/proc/$pid" ] || [ "$(cat "/proc/$pid/comm" 2>/dev/null)" != "$2" ]; then
    echo "[slurm/stop] $1 (pid $pid) not running"
    rm -f "$f"; return 0
  fi
  kill -TERM "$pid" 2>/dev/null
  for i in $(seq 1 40); do
    [ -d "/proc/$pid" ] || break
    # a zombie (already exited, not yet reaped) counts as stopped
    [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = Z ] && break
    sleep 0.5
  done
  if [ -d "/proc/$pid" ] && [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ]; then
    echo "[slurm/stop] $1 (pid $pid) ignored SIGTERM, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null
  fi
  echo "[slurm/stop] stopped $1 (pid $pid)"
  rm -f "$f"
}

stop_one slurmd    slurmd
stop_one slurmctld slurmctld
stop_one slurmdbd  slurmdbd
stop_one mariadb   mariadbd
stop_one munged    munged
exit 0
