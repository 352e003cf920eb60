#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, to try scripts/slurm/ (and
# what test_shard_slurm starts): munged, slurmctld and slurmd with their
# own configuration, keys, state and logs in DIR, on ports away from the
# default ones, so a cluster already running here is not disturbed.
#
#   scripts/slurm/local-cluster.sh start DIR   # prints: export SLURM_CONF=DIR/slurm.conf
#   scripts/slurm/local-cluster.sh stop DIR    # ends the three daemons it started
#
# Needs root and Debian's slurm-wlm and munge (scripts/deps.sh).  Start
# waits until the node is idle (30 s at most).  Exit codes: 0 done; 1 a
# daemon did not start or the node did not come up (logs in DIR/log and
# DIR/munge/log); 2 usage or not root.
set -uo pipefail
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "local-cluster: $*" >&2; exit "${2:-1}"; }
[ $# -eq 2 ] || usage
action="$1"
dir="$(mkdir -p "$2" && cd "$2" && pwd)" || die "cannot use $2" 2

stop() {
  local f pid pids=()
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/pid"; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    [[ "$pid" =~ ^[0-9]+$ ]] && [ "$pid" -gt 1 ] && kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  done
  rm -f "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/pid"
  return 0
}

start() {
  [ "$(id -u)" = 0 ] || die "not root (a Slurm cluster needs root to start)" 2
  local d
  for d in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd /usr/bin/sinfo; do
    [ -x "$d" ] || die "$d is missing (install slurm-wlm and munge: scripts/deps.sh)" 2
  done
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" && chmod 700 "$dir/munge" || die "cannot create $dir"
  [ -f "$dir/munge/munge.key" ] || { head -c 128 /dev/urandom >"$dir/munge/munge.key" && chmod 600 "$dir/munge/munge.key"; } ||
    die "cannot write the munge key"
  /usr/sbin/munged --force --socket="$dir/munge/sock" --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/pid" \
    --log-file="$dir/munge/log" --seed-file="$dir/munge/seed" || die "munged did not start (see $dir/munge/log)"
  local node cpus mem port
  node="$(hostname)"; node="${node%%.*}"
  cpus="$(nproc)"
  mem=$(awk '/^MemTotal:/ { m = int($2 / 1024) - 1024; print (m < 1024) ? 1024 : m }' /proc/meminfo)
  port=$((20000 + ($$ * 2) % 20000))
  cat >"$dir/slurm.conf" <<CONF
ClusterName=sgfpat
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=600
NodeName=$node CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$dir/slurm.conf"
  /usr/sbin/slurmctld -f "$SLURM_CONF" || { stop; die "slurmctld did not start (see $dir/log/slurmctld.log)"; }
  /usr/sbin/slurmd -f "$SLURM_CONF" || { stop; die "slurmd did not start (see $dir/log/slurmd.log)"; }
  local state="" i
  for i in $(seq 100); do
    state="$(/usr/bin/sinfo -h -o %T 2>/dev/null)"
    [ "$state" = idle ] && break
    sleep 0.3
  done
  [ "$state" = idle ] || { stop; die "the node is '$state', not idle, after 30 s (see $dir/log/)"; }
  echo "export SLURM_CONF=$SLURM_CONF"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
