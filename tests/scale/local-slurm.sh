#!/usr/bin/env bash
# Starts or stops a one-node Slurm on this machine (this machine is controller and node), for
# the scale-out test (tests/scale/slurm-compare-test.sh) and for trying scripts/slurm/ by hand.
#
#   eval "$(tests/scale/local-slurm.sh start)"   # prints: export SLURM_CONF=DIR/slurm.conf
#   sbatch --wrap hostname; squeue; sinfo
#   tests/scale/local-slurm.sh stop
#
# Needs root and Debian's slurm-wlm and munge (scripts/install-deps.sh installs them with
# LANESCOPE_WITH_SLURM=1). Everything lives in one folder, DIR = $LANESCOPE_SLURM_DIR (default
# /tmp/lanescope-slurm): slurm.conf, a munge key of its own and munged's socket, the state,
# spool, pid and log files; `source DIR/env` sets SLURM_CONF as well. Nothing outside DIR is
# written or read: /etc/munge and /etc/slurm are left alone and a munged or Slurm of the system,
# if any, is not touched (this one has its own munge socket and its own ports,
# $LANESCOPE_SLURM_PORT and the next one, default 16817 and 16818, on 127.0.0.1 only for its
# traffic). Jobs run as the user who submits them (root here).
#
# start: idempotent (a running, answering Slurm of DIR is kept; a dead or half-started one is
# stopped first); waits at most $LANESCOPE_SLURM_START_S seconds (default 60) for the node to
# be idle, else prints the daemons' log tails and fails. stop: cancels the jobs, stops the
# daemons (SIGTERM, then SIGKILL after 10 s) and removes DIR; idempotent, at most about 30 s.
#
# No accounting: without slurmdbd, `sacct` has nothing to read. Finished jobs are written to
# DIR/log/jobcomp.txt (JobCompType=jobcomp/filetxt), which `sacct -c` reads here; a real
# cluster's `sacct` reads slurmdbd instead, so scripts/slurm/compare-ranks.sh does not use it.
set -euo pipefail

dir=${LANESCOPE_SLURM_DIR:-/tmp/lanescope-slurm}
port=${LANESCOPE_SLURM_PORT:-16817}
start_s=${LANESCOPE_SLURM_START_S:-60}
conf=$dir/slurm.conf
node=$(hostname -s)

say() { echo "local-slurm: $*" >&2; }
die() { say "$*"; exit 1; }

# The pid in DIR/run/NAME.pid, when that process is alive (not a zombie) and is NAME: a pid
# file left by a crash never makes us signal another process that got the same pid.
alive_pid() {
  local pid stat
  pid=$(cat "$dir/run/$1.pid" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] || return 1
  stat=$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null) || return 1
  [ "$stat" != Z ] || return 1
  echo "$pid"
}

# The node's state as sinfo prints it (idle, mixed, down*, ...), or nothing.
node_state() {
  SLURM_CONF=$conf timeout 10 sinfo -h -n "$node" -o %T 2>/dev/null | head -1 || true
}

log_tails() {
  local f
  for f in "$dir"/log/munged.log "$dir"/log/slurmctld.log "$dir"/log/slurmd.log; do
    [ -f "$f" ] || continue
    say "--- last lines of $f:"
    tail -n 15 "$f" >&2
  done
}

stop() {
  local f pid any=0
  if [ -f "$conf" ] && alive_pid slurmctld >/dev/null; then
    # Cancel our jobs first, so that no job step (slurmstepd and its task) outlives slurmd.
    local jobs
    jobs=$(SLURM_CONF=$conf timeout 10 squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ' || true)
    if [ -n "${jobs// /}" ]; then
      # shellcheck disable=SC2086
      SLURM_CONF=$conf timeout 10 scancel $jobs 2>/dev/null || true
      for _ in $(seq 1 20); do
        [ -z "$(SLURM_CONF=$conf timeout 10 squeue -h -o %A 2>/dev/null || true)" ] && break
        sleep 0.5
      done
    fi
  fi
  for f in slurmd slurmctld munged; do
    if pid=$(alive_pid "$f"); then
      kill -TERM "$pid" 2>/dev/null || true
      any=1
    fi
  done
  if [ $any = 1 ]; then
    for _ in $(seq 1 20); do
      any=0
      for f in slurmd slurmctld munged; do
        alive_pid "$f" >/dev/null && any=1
      done
      [ $any = 0 ] && break
      sleep 0.5
    done
    for f in slurmd slurmctld munged; do
      if pid=$(alive_pid "$f"); then
        say "$f ($pid) did not stop on SIGTERM within 10 s: SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
      fi
    done
  fi
  rm -rf "$dir"
}

start() {
  [ "$(id -u)" -eq 0 ] || die "needs root (it runs munged, slurmctld and slurmd)"
  local b
  for b in munged mungekey slurmctld slurmd sbatch squeue sinfo scancel; do
    command -v "$b" >/dev/null || [ -x "/usr/sbin/$b" ] ||
      die "$b not found: install slurm-wlm and munge (LANESCOPE_WITH_SLURM=1 scripts/install-deps.sh)"
  done
  export PATH=$PATH:/usr/sbin

  # Already up (from an earlier start): keep it.
  if [ -f "$conf" ] && alive_pid munged >/dev/null &&
     alive_pid slurmctld >/dev/null && alive_pid slurmd >/dev/null; then
    case $(node_state) in
      idle|mixed|allocated|completing)
        say "already running in $dir"
        echo "export SLURM_CONF=$conf"
        return 0;;
    esac
  fi
  [ -e "$dir" ] && { say "a stopped or half-started Slurm in $dir: cleaning it first"; stop; }

  local sock=$dir/munge/munge.socket
  [ ${#sock} -lt 100 ] || die "LANESCOPE_SLURM_DIR is too long for a Unix socket path: $dir"
  mkdir -p "$dir"/{munge,run,log,state/ctld,state/d}
  chmod 0755 "$dir/munge"

  # munge: a key of its own (never /etc/munge/munge.key), a socket in DIR. --force: munged
  # refuses, without it, a key or socket under a world-writable parent (/tmp) and running as root.
  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$dir/munge/munge.key"
  munged --force --socket="$sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" >>"$dir/log/munged.start" 2>&1 ||
    { cat "$dir/log/munged.start" >&2; log_tails; die "munged did not start"; }

  local cpus mem
  cpus=$(nproc)
  mem=1024  # MB; modest on purpose: memory is not a consumable here (CR_Core)
  cat >"$conf" <<EOF
# Written by tests/scale/local-slurm.sh: a one-node Slurm, controller and node on this machine.
ClusterName=lanescope
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state/ctld
SlurmdSpoolDir=$dir/state/d
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
# Hand out work as soon as it is submitted or its dependency is met, not every 60 s.
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,batch_sched_delay=0,bf_interval=1
MinJobAge=300
ReturnToService=2
SlurmdParameters=config_overrides
InactiveLimit=0
KillWait=5
Waittime=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  echo "export SLURM_CONF=$conf" >"$dir/env"

  # -c: a cold start, no state from an earlier run. Both daemonize and write their pid files.
  SLURM_CONF=$conf slurmctld -c -f "$conf" >>"$dir/log/slurmctld.start" 2>&1 ||
    { cat "$dir/log/slurmctld.start" >&2; log_tails; stop; die "slurmctld did not start"; }
  SLURM_CONF=$conf slurmd -f "$conf" -N "$node" >>"$dir/log/slurmd.start" 2>&1 ||
    { cat "$dir/log/slurmd.start" >&2; log_tails; stop; die "slurmd did not start"; }

  local deadline=$((SECONDS + start_s)) state=""
  while :; do
    state=$(node_state)
    case $state in
      idle) break;;
      down*|drain*|fail*)
        # A node registering after a cold start can show down for a moment; ReturnToService=2
        # brings it back once slurmd answers. Only give up at the deadline.
        ;;
    esac
    if [ $SECONDS -ge $deadline ]; then
      log_tails
      stop
      die "node $node not idle after ${start_s} s (last state: '${state:-no answer from slurmctld}')"
    fi
    sleep 0.5
  done
  say "running in $dir: node $node idle ($cpus CPUs); source $dir/env or eval this output"
  echo "export SLURM_CONF=$conf"
}

case ${1:-} in
  start) start;;
  stop) stop;;
  *) echo "usage: $0 start|stop" >&2; exit 1;;
esac
