# scripts/apt_wait.sh, sourced by setup.sh and test_arm.sh: apt_get ARGS... runs `apt-get ARGS`
# (through sudo when not root) and, when another apt or dpkg holds the package manager's lock,
# waits for it instead of failing: a busy machine (an unattended upgrade, another set-up) is not
# an error. apt-get's own DPkg::Lock::Timeout covers only dpkg's lock, not the package lists'
# lock `apt-get update` takes, so the lock error is retried here, for both.
# NNUE_APT_WAIT: seconds to wait at most (default 1800); the caller's name prefixes the messages.

apt_get() {
  local who="${APT_WAIT_WHO:-setup}" limit="${NNUE_APT_WAIT:-1800}" waited=0 err sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  err=$(mktemp)
  while :; do
    if $sudo env DEBIAN_FRONTEND=noninteractive apt-get "$@" 2>"$err"; then
      rm -f "$err"
      return 0
    fi
    # apt's words for a held lock: "Could not get lock /var/lib/dpkg/lock-frontend. It is held by
    # process N (apt-get)", "Unable to lock directory /var/lib/apt/lists/", "Unable to acquire ...".
    if grep -q "Could not get lock\|Unable to lock\|Unable to acquire the dpkg" "$err" && [ "$waited" -lt "$limit" ]; then
      if [ "$waited" -eq 0 ]; then
        echo "$who: waiting for the package manager: $(grep -m1 'Could not get lock' "$err" | sed 's/^E: //')" \
          "(retrying apt-get $1 every 10 s, up to $limit s; NNUE_APT_WAIT changes that)" >&2
      fi
      sleep 10
      waited=$((waited + 10))
      continue
    fi
    [ "$waited" -ge "$limit" ] && echo "$who: the package manager's lock was still held after $limit s" >&2
    cat "$err" >&2
    rm -f "$err"
    return 1
  done
}
