# Sourced by the examples' run.sh (after setting $here, the example's
# directory): sets $opt to the hwsched-opt to run. $HWSCHED_OPT names it;
# default hwsched-opt on PATH, else build/bin/ of this checkout. A relative
# path is made absolute, so that it survives the script's cd into $here.
opt=${HWSCHED_OPT:-$(command -v hwsched-opt || echo "$here/../../build/bin/hwsched-opt")}
case "$opt" in
  /*) ;;
  */*) opt="$(pwd)/$opt" ;;
esac
