// cputime.c: thread CPU-time clock for the MLIR benchmark programs.
//
// The bench machines are shared: wall-clock time (rtclock) then counts time
// the benchmark spends descheduled. cputime() counts only the time this
// thread ran, so GFLOP/s stay comparable under load. run.py builds this into
// a shared library passed to mlir-runner with -shared-libs.
//
// Built with -DHWSCHED_WALL_CLOCK, cputime() reads the monotonic wall clock
// instead: for programs that run on several threads (OpenMP), the calling
// thread's CPU time leaves out the other threads' work and counts its own
// waits, so hwsched-tune times those by the wall clock.
#include <time.h>

#ifdef HWSCHED_WALL_CLOCK
#define HWSCHED_CLOCK CLOCK_MONOTONIC
#else
#define HWSCHED_CLOCK CLOCK_THREAD_CPUTIME_ID
#endif

double cputime(void) {
  struct timespec ts;
  clock_gettime(HWSCHED_CLOCK, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
