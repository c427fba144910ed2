// cputime.c: thread CPU-time clock for the MLIR benchmark programs.
//
// The bench machines are shared: wall-clock time (rtclock) then counts time
// the benchmark spends descheduled. cputime() counts only the time this
// thread ran, so GFLOP/s stay comparable under load. run.py builds this into
// a shared library passed to mlir-runner with -shared-libs.
#include <time.h>

double cputime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
