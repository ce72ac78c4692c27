#!/usr/bin/env bash
# Start a private single-node SLURM cluster (munge + MariaDB + slurmdbd +
# slurmctld + slurmd) on this machine, for tests/workflow/test_slurm.py.
#
# Idempotent: packages are installed only if missing, daemons that are
# already running (pid file + live process of the right name) are left
# alone, the database and SLURM state persist between runs under $STATE.
# Every daemon is started by hand in the background (no systemd needed) and
# its PID is written to $STATE/pids/<name>.pid; .ci/slurm/stop.sh kills
# exactly those PIDs.
#
# Usage:  bash .ci/slurm/start.sh          (as root)
# Env:    LOCALBO_SLURM_STATE  state dir (default /tmp/localbo-slurm)
#         LOCALBO_SLURM_TIMEOUT seconds to wait for each daemon (default 90)
set -euo pipefail

STATE=${LOCALBO_SLURM_STATE:-/tmp/localbo-slurm}
WAIT=${LOCALBO_SLURM_TIMEOUT:-90}
CLUSTER=localbo          # ClusterName in slurm.conf and in the accounting DB
ACCOUNT=localbo          # SLURM account; = slurm_account in workflow/profiles/slurm
PARTITION=main           # the only (default) partition
DB_PORT=3307             # private MariaDB port (not 3306: never clash with a system one)
DB_PASS=localbo-slurmdbd # local-only password of the DB user 'slurm'
PIDS=$STATE/pids
LOGS=$STATE/log
# munge socket: the default path. slurm 22.05's sacctmgr/slurmdbd persistent
# connections ignore AuthInfo=socket=..., so a private socket does not work.
MUNGE_SOCK=/run/munge/munge.socket.2
DB_SOCK=$STATE/mysql/mysqld.sock   # inside the mysql-owned dir: mariadbd runs as mysql

T0=$(date +%s.%N)
PHASE_T=$T0
log() { echo "[slurm/start] $*"; }
die() {
  echo "[slurm/start] ERROR: $*" >&2
  for f in "$LOGS"/*.log "$LOGS"/*.out; do
    [ -s "$f" ] || continue
    echo "----- last lines of $f -----" >&2
    tail -n 15 "$f" >&2
  done
  exit 1
}
phase_done() { # print how long the phase took
  local now; now=$(date +%s.%N)
  awk -v a="$PHASE_T" -v b="$now" -v n="$1" 'BEGIN { printf "[slurm/start] %-28s %6.1f s\n", n, b - a }'
  PHASE_T=$now
}
WATCH=""  # "NAME COMM" of the daemon wait_for should watch (fail fast if it died)
wait_for() { # wait_for DESCRIPTION COMMAND...   (polls every 0.5 s up to $WAIT s)
  local what=$1; shift
  local deadline=$(( $(date +%s) + WAIT ))
  until "$@" >/dev/null 2>&1; do
    # shellcheck disable=SC2086
    if [ -n "$WATCH" ] && ! running $WATCH; then
      die "${WATCH%% *} died while waiting for $what (see $LOGS/${WATCH%% *}.*)"
    fi
    [ "$(date +%s)" -lt "$deadline" ] || die "timed out after ${WAIT}s waiting for $what"
    sleep 0.5
  done
}

[ "$(id -u)" -eq 0 ] || die "must run as root (installs packages, starts daemons)"

# --------------------------------------------------------------------------
# 1. packages
# --------------------------------------------------------------------------
PKGS="slurm-wlm slurmdbd munge mariadb-server"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  log "installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || die "apt-get update failed"
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/tmp/localbo-slurm-apt.log 2>&1 \
    || { tail -n 30 /tmp/localbo-slurm-apt.log >&2; die "apt-get install failed (log: /tmp/localbo-slurm-apt.log)"; }
else
  log "packages already installed"
fi
phase_done "packages"

# --------------------------------------------------------------------------
# 2. directories and configuration
# --------------------------------------------------------------------------
mkdir -p "$STATE" "$PIDS" "$LOGS" "$STATE/ctld" "$STATE/slurmd" "$STATE/munge" "$STATE/mysql/data"
chmod 755 "$STATE"
chown munge:munge "$STATE/munge"
mkdir -p /run/munge; chown munge:munge /run/munge; chmod 755 /run/munge  # clients need +x
chown -R mysql:mysql "$STATE/mysql"

NODE=$(hostname -s)
# The node offers twice the machine's cores (slurmd takes the configured count, below): a test
# job is mostly Snakemake starting twice and waiting on the controller, so two per core keep the
# cores busy.
CPUS=$(( 2 * $(nproc) ))
MEM_MB=$(awk '/^MemTotal:/ {print int($2/1024)}' /proc/meminfo)
REAL_MEM=$(( MEM_MB * 9 / 10 ))          # a bit below physical: slurmd refuses nodes that over-report
DEF_MEM_PER_CPU=$(( REAL_MEM / CPUS / 4 ))  # a job without --mem gets this per CPU, not the whole node
[ "$DEF_MEM_PER_CPU" -gt 2000 ] && DEF_MEM_PER_CPU=2000

if [ -e /etc/slurm/slurm.conf ] && ! grep -q 'localbo-slurm' /etc/slurm/slurm.conf; then
  cp /etc/slurm/slurm.conf "/etc/slurm/slurm.conf.before-localbo.$(date +%s)"
fi
mkdir -p /etc/slurm
cat >/etc/slurm/slurm.conf <<EOF
# Written by .ci/slurm/start.sh (localbo-slurm): private single-node test cluster.
ClusterName=$CLUSTER
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/slurmd
SlurmctldPidFile=$STATE/slurmctld.daemonpid
SlurmdPidFile=$STATE/slurmd.daemonpid
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
# Memory is enforced: jobacct_gather/linux samples each job's RSS every second and
# OverMemoryKill kills a job above its --mem (no cgroups in a container), so the
# memory-fault test (tests/workflow/test_slurm.py) meets what a real cluster does.
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SlurmdParameters=config_overrides
DefMemPerCPU=$DEF_MEM_PER_CPU
SchedulerType=sched/backfill
ReturnToService=2
# squeue keeps a finished job MinJobAge s (the SLURM default, 300): the profile reads job
# states with squeue (workflow/profiles/slurm/profile.yaml says why), and the plugin checks
# at most every 180 s, so no job leaves squeue unseen.
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=30
MpiDefault=none
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStorageEnforce=associations
# job_comment: sacct -o Comment shows the plugin's rule_<name> comment
AccountingStoreFlags=job_comment
MailProg=/bin/true
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$REAL_MEM State=UNKNOWN
PartitionName=$PARTITION Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

cat >/etc/slurm/slurmdbd.conf <<EOF
# Written by .ci/slurm/start.sh (localbo-slurm).
AuthType=auth/munge
DbdHost=localhost
DbdAddr=127.0.0.1
SlurmUser=root
PidFile=$STATE/slurmdbd.daemonpid
LogFile=$LOGS/slurmdbd.log
DebugLevel=info
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=$DB_PASS
StorageLoc=slurm_acct_db
EOF
chmod 600 /etc/slurm/slurmdbd.conf   # slurmdbd refuses a world-readable config
phase_done "configuration"

# --------------------------------------------------------------------------
# helpers for the daemons
# --------------------------------------------------------------------------
running() { # running NAME COMM : pid file exists and its process is alive with that command name
  local f=$PIDS/$1.pid pid
  [ -s "$f" ] || return 1
  pid=$(cat "$f")
  [ -d "/proc/$pid" ] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]
}
launch() { # launch NAME COMMAND... : start in its own session, record its PID
  local name=$1; shift
  # setsid execs the command (the background child is not a group leader),
  # so $! is the daemon's own PID.
  setsid "$@" </dev/null >>"$LOGS/$name.out" 2>&1 &
  echo $! >"$PIDS/$name.pid"
  log "started $name (pid $!)"
}
alive_or_die() { running "$1" "$2" || die "$1 exited right after start (see $LOGS/$1.*)"; }

# --------------------------------------------------------------------------
# 3. munged
# --------------------------------------------------------------------------
if [ ! -s /etc/munge/munge.key ]; then
  mungekey --create --keyfile=/etc/munge/munge.key
  chown munge:munge /etc/munge/munge.key; chmod 400 /etc/munge/munge.key
fi
munge_ok() { munge -n -S "$MUNGE_SOCK" | unmunge -S "$MUNGE_SOCK"; }
if running munged munged; then
  log "munged already running"
elif munge_ok >/dev/null 2>&1; then
  # e.g. the package's own service was started by its postinst: use it, do
  # not record it (stop.sh must only stop what we started)
  log "a munged not started by us answers on $MUNGE_SOCK; using it"
else
  rm -f "$MUNGE_SOCK" "$MUNGE_SOCK.lock"
  # setpriv execs (runuser would fork and its PID would be recorded instead)
  launch munged setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground \
    --socket="$MUNGE_SOCK" --seed-file="$STATE/munge/munged.seed" \
    --pid-file="$STATE/munge/munged.daemonpid" \
    --log-file="$LOGS/munged.log"
  sleep 0.3
  WATCH="munged munged"
fi
wait_for "munged" munge_ok
phase_done "munged"

# --------------------------------------------------------------------------
# 4. MariaDB (private datadir, socket and port 127.0.0.1:$DB_PORT)
# --------------------------------------------------------------------------
MYSQL="mariadb --no-defaults -S $DB_SOCK -u root"
if running mariadb mariadbd; then
  log "mariadb already running"
else
  if [ ! -d "$STATE/mysql/data/mysql" ]; then
    mariadb-install-db --no-defaults --datadir="$STATE/mysql/data" --user=mysql \
      --skip-test-db >"$LOGS/mariadb-install.log" 2>&1 \
      || die "mariadb-install-db failed (see $LOGS/mariadb-install.log)"
  fi
  rm -f "$DB_SOCK"
  launch mariadb /usr/sbin/mariadbd --no-defaults --user=mysql \
    --datadir="$STATE/mysql/data" --socket="$DB_SOCK" --pid-file="$STATE/mysql/mariadb.daemonpid" \
    --port="$DB_PORT" --bind-address=127.0.0.1 --skip-name-resolve \
    --skip-log-bin \
    --innodb-buffer-pool-size=1G --innodb-log-file-size=64M --innodb-lock-wait-timeout=900
fi
WATCH="mariadb mariadbd"; wait_for "mariadb" mariadb-admin --no-defaults -S "$DB_SOCK" -u root ping
alive_or_die mariadb mariadbd
$MYSQL <<EOF || die "could not create the slurm DB user"
CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY '$DB_PASS';
CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '$DB_PASS';
CREATE DATABASE IF NOT EXISTS slurm_acct_db;
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
FLUSH PRIVILEGES;
EOF
phase_done "mariadb"

# --------------------------------------------------------------------------
# 5. slurmdbd + associations (cluster, account, users)
# --------------------------------------------------------------------------
if running slurmdbd slurmdbd; then
  log "slurmdbd already running"
else
  launch slurmdbd /usr/sbin/slurmdbd -D
fi
WATCH="slurmdbd slurmdbd"; wait_for "slurmdbd (sacctmgr list cluster)" sacctmgr -n list cluster
alive_or_die slurmdbd slurmdbd
if ! sacctmgr -n -P list cluster format=cluster | grep -qx "$CLUSTER"; then
  sacctmgr -i add cluster "$CLUSTER" >/dev/null || die "sacctmgr add cluster failed"
fi
if ! sacctmgr -n -P list account format=account | grep -qx "$ACCOUNT"; then
  sacctmgr -i add account "$ACCOUNT" cluster="$CLUSTER" \
    description="localbo test account" organization=localbo >/dev/null \
    || die "sacctmgr add account failed"
fi
users="root"
[ -n "${SUDO_USER:-}" ] && users="$users $SUDO_USER"
for u in $users; do
  if ! sacctmgr -n -P list assoc user="$u" account="$ACCOUNT" format=user | grep -qx "$u"; then
    sacctmgr -i add user "$u" account="$ACCOUNT" defaultaccount="$ACCOUNT" >/dev/null \
      || die "sacctmgr add user $u failed"
  fi
done
phase_done "slurmdbd + associations"

# --------------------------------------------------------------------------
# 6. slurmctld and slurmd
# --------------------------------------------------------------------------
if running slurmctld slurmctld; then
  log "slurmctld already running; re-reading slurm.conf"
  scontrol reconfigure >/dev/null 2>&1 || true
else
  launch slurmctld /usr/sbin/slurmctld -D -i
fi
ctld_up() { scontrol ping | grep -q 'is UP'; }
WATCH="slurmctld slurmctld"; wait_for "slurmctld (scontrol ping)" ctld_up
alive_or_die slurmctld slurmctld
phase_done "slurmctld"

if running slurmd slurmd; then
  log "slurmd already running"
else
  launch slurmd /usr/sbin/slurmd -D
fi
node_state() { sinfo -h -n "$NODE" -o %T 2>/dev/null | head -n1; }
node_idle() {
  case "$(node_state)" in
    idle|mixed|allocated) return 0 ;;
    drain*|down*) scontrol update nodename="$NODE" state=resume >/dev/null 2>&1; return 1 ;;
    *) return 1 ;;
  esac
}
WATCH="slurmd slurmd"; wait_for "node $NODE to become idle (sinfo)" node_idle
alive_or_die slurmd slurmd
phase_done "slurmd (node idle)"

WATCH=""; wait_for "sacct to answer" sacct -n -X -S now-1hours
phase_done "sacct check"

log "cluster '$CLUSTER' ready: node $NODE ($CPUS CPUs, RealMemory=$REAL_MEM MB, DefMemPerCPU=$DEF_MEM_PER_CPU MB), partition '$PARTITION', account '$ACCOUNT'"
sinfo
awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "[slurm/start] %-28s %6.1f s\n", "TOTAL", b - a }'
