# What the libFuzzer scripts (run-ci.sh, run-long.sh, make-corpus.sh) share:
# the two targets, their flags, and where their inputs live. Sourced, not run.
#
#   committed  fuzz/seeds/spec-loader/        spec-loader seeds
#              fuzz/make_op_seeds.py          writes the op target's seeds
#                                             (derived from test/ and examples/)
#              fuzz/regressions/<dir>/        every input that ever broke a target
#              fuzz/*.dict                    dictionaries
#   generated  fuzz/corpus/<dir>/             the merged corpus (fuzz/make-corpus.sh;
#                                             ignored by git)
fuzz_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FUZZ_TARGETS="spec-loader ops"

# fuzz_dir NAME: the folder name of a target under corpus/ and regressions/.
fuzz_dir() {
  case $1 in
    spec-loader) echo spec-loader ;;
    ops) echo op-fuzzer ;;
  esac
}

# fuzz_binary NAME BINS: the target's binary among fuzz/build.sh's output.
fuzz_binary() {
  case $1 in
    spec-loader) echo "$2" | sed -n 1p ;;
    ops) echo "$2" | sed -n 2p ;;
  esac
}

# fuzz_flags NAME: the target's libFuzzer flags (input length, dictionary).
fuzz_flags() {
  case $1 in
    spec-loader) echo "-max_len=16384 -dict=$fuzz_root/fuzz/spec-loader.dict" ;;
    ops) echo "-max_len=8192 -dict=$fuzz_root/fuzz/op-fuzzer.dict" ;;
  esac
}

fuzz_regressions() { echo "$fuzz_root/fuzz/regressions/$(fuzz_dir "$1")"; }
fuzz_corpus() { echo "$fuzz_root/fuzz/corpus/$(fuzz_dir "$1")"; }

# fuzz_seeds NAME WORK: prints the target's seed folder; the op seeds are
# written under WORK (make_op_seeds.py is deterministic).
fuzz_seeds() {
  case $1 in
    spec-loader) echo "$fuzz_root/fuzz/seeds/spec-loader" ;;
    ops)
      python3 "$fuzz_root/fuzz/make_op_seeds.py" --out "$2/op-seeds" >/dev/null
      echo "$2/op-seeds" ;;
  esac
}

# Run libFuzzer with address-space randomisation off where the kernel allows
# it: coverage then does not depend on where pointers land (hash tables keyed
# by pointers), so a fixed -seed and -runs give the same corpus.
fuzz_norand=()
if setarch "$(uname -m)" -R true 2>/dev/null; then
  fuzz_norand=(setarch "$(uname -m)" -R)
fi
