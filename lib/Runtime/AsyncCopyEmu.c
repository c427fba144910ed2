/*===- AsyncCopyEmu.c - Deferred CPU emulation of nvgpu async copies ------===*
 *
 * Part of the hwsched project.
 *
 * Runtime of --hwsched-emulate-async-copies, loaded into mlir-runner with
 * -shared-libs. An async copy snapshots its source when issued and is held
 * pending; commit() closes the open group; wait(n) performs, oldest first, the
 * copies of every committed group except the n most recent. A wait that lets
 * too many groups stay in flight thus leaves the destination stale, as a
 * too-permissive cp.async.wait_group would on the hardware. The state is per
 * thread (thread-local), as cp.async groups are on the GPU.
 *
 *===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *dst;
  int64_t dstStrideBytes; /* innermost stride of the destination */
  int64_t elementBytes;
  int64_t numElements;
  char *data;    /* snapshot of the source, zero-filled past src_elements */
  int64_t group; /* index of the group, or -1 while the group is open */
} PendingCopy;

/* One thread's copies: as on the GPU, where cp.async groups and waits are
 * per thread, a thread's wait completes its own copies only. The threads of
 * an emulated gpu.launch (--hwsched-emulate-gpu-launch, OpenMP threads) each
 * have theirs. */
typedef struct {
  PendingCopy *pending;
  int64_t numPending, capacity;
  /* Groups committed so far and groups already completed by a wait. */
  int64_t numCommitted, numCompleted;
} ThreadCopies;

static _Thread_local ThreadCopies copies;

static void fail(const char *message) {
  /* stderr is unbuffered; abort() would drop buffered stdout. */
  fprintf(stderr, "hwsched-async-emu: %s\n", message);
  abort();
}

void hwsched_async_emu_copy(int64_t dst, int64_t dstStride, int64_t src,
                            int64_t srcStride, int64_t numElements,
                            int64_t srcElements, int64_t elementBytes) {
  if (numElements < 0 || elementBytes <= 0)
    fail("bad copy size");
  if (srcElements < 0 || srcElements > numElements)
    srcElements = srcElements < 0 ? 0 : numElements;
  if (copies.numPending == copies.capacity) {
    copies.capacity = copies.capacity ? 2 * copies.capacity : 64;
    copies.pending =
        realloc(copies.pending, copies.capacity * sizeof(PendingCopy));
    if (!copies.pending)
      fail("out of memory");
  }
  PendingCopy *copy = &copies.pending[copies.numPending++];
  copy->dst = (char *)(intptr_t)dst;
  copy->dstStrideBytes = dstStride * elementBytes;
  copy->elementBytes = elementBytes;
  copy->numElements = numElements;
  copy->group = -1;
  copy->data = calloc(numElements ? numElements : 1, elementBytes);
  if (!copy->data)
    fail("out of memory");
  for (int64_t i = 0; i < srcElements; ++i)
    memcpy(copy->data + i * elementBytes,
           (char *)(intptr_t)src + i * srcStride * elementBytes, elementBytes);
}

void hwsched_async_emu_commit(void) {
  for (int64_t i = 0; i < copies.numPending; ++i)
    if (copies.pending[i].group < 0)
      copies.pending[i].group = copies.numCommitted;
  ++copies.numCommitted;
}

/* numGroups < 0: wait for every committed group. */
void hwsched_async_emu_wait(int64_t numGroups) {
  int64_t limit = copies.numCommitted - (numGroups < 0 ? 0 : numGroups);
  if (limit <= copies.numCompleted)
    return;
  int64_t kept = 0;
  for (int64_t i = 0; i < copies.numPending; ++i) {
    PendingCopy *copy = &copies.pending[i];
    if (copy->group < 0 || copy->group >= limit) {
      copies.pending[kept++] = *copy;
      continue;
    }
    for (int64_t e = 0; e < copy->numElements; ++e)
      memcpy(copy->dst + e * copy->dstStrideBytes,
             copy->data + e * copy->elementBytes, copy->elementBytes);
    free(copy->data);
  }
  copies.numPending = kept;
  copies.numCompleted = limit;
}

/* Fails when the calling thread still has copies pending at `where`. */
static void failIfPending(const char *where) {
  if (copies.numPending) {
    char message[160];
    snprintf(message, sizeof message,
             "%lld async copies still pending at %s (a missing create_group "
             "or wait)",
             (long long)copies.numPending, where);
    fail(message);
  }
}

/* Called before a function that issues async copies returns. */
void hwsched_async_emu_check_drained(void) { failIfPending("function exit"); }

/* Called by each thread of an emulated gpu.launch when it leaves the block
 * (the end of its omp.parallel region), if the region issues async copies:
 * a thread's copies must all have landed when its kernel ends. */
void hwsched_async_emu_check_thread_drained(void) {
  failIfPending("the end of a GPU thread");
}
