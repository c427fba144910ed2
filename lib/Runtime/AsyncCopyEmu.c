/*===- AsyncCopyEmu.c - Deferred CPU emulation of nvgpu async copies ------===*
 *
 * Part of the hwsched project.
 *
 * Runtime of --hwsched-emulate-async-copies, loaded into mlir-runner with
 * -shared-libs. An async copy snapshots its source when issued and is held
 * pending; commit() closes the open group; wait(n) performs, oldest first, the
 * copies of every committed group except the n most recent. A wait that lets
 * too many groups stay in flight thus leaves the destination stale, as a
 * too-permissive cp.async.wait_group would on the hardware.
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
  char *data; /* snapshot of the source, zero-filled past src_elements */
  int64_t group; /* index of the group, or -1 while the group is open */
} PendingCopy;

static PendingCopy *pending;
static int64_t numPending, capacity;
/* Groups committed so far and groups already completed by a wait. */
static int64_t numCommitted, numCompleted;

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
  if (numPending == capacity) {
    capacity = capacity ? 2 * capacity : 64;
    pending = realloc(pending, capacity * sizeof(PendingCopy));
    if (!pending)
      fail("out of memory");
  }
  PendingCopy *copy = &pending[numPending++];
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
  for (int64_t i = 0; i < numPending; ++i)
    if (pending[i].group < 0)
      pending[i].group = numCommitted;
  ++numCommitted;
}

/* numGroups < 0: wait for every committed group. */
void hwsched_async_emu_wait(int64_t numGroups) {
  int64_t limit = numCommitted - (numGroups < 0 ? 0 : numGroups);
  if (limit <= numCompleted)
    return;
  int64_t kept = 0;
  for (int64_t i = 0; i < numPending; ++i) {
    PendingCopy *copy = &pending[i];
    if (copy->group < 0 || copy->group >= limit) {
      pending[kept++] = *copy;
      continue;
    }
    for (int64_t e = 0; e < copy->numElements; ++e)
      memcpy(copy->dst + e * copy->dstStrideBytes,
             copy->data + e * copy->elementBytes, copy->elementBytes);
    free(copy->data);
  }
  numPending = kept;
  numCompleted = limit;
}

/* Called before a function that issues async copies returns. */
void hwsched_async_emu_check_drained(void) {
  if (numPending) {
    char message[160];
    snprintf(message, sizeof message,
             "%lld async copies still pending at function exit (a missing "
             "create_group or wait)",
             (long long)numPending);
    fail(message);
  }
}
