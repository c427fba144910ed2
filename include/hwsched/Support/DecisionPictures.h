//===- DecisionPictures.h - SVG pictures of hwsched decisions ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Two pictures a person can open to see what an op decided: the on-chip
// memory layout (buffers as rectangles over program time x address, with the
// capacity drawn) and a pipeline schedule (ops by unit over time, coloured
// by stage, with prologue / kernel / epilogue marked). The renderers take
// plain data, so analyses, tests and benchmarks can all draw.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_SUPPORT_DECISIONPICTURES_H
#define HWSCHED_SUPPORT_DECISIONPICTURES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace hwsched {

/// One buffer placed in on-chip memory: live over program points
/// [start, end) and occupying bytes [offset, offset + size).
struct LayoutBox {
  std::string name;
  int64_t start = 0;
  int64_t end = 0;
  int64_t offset = 0;
  int64_t size = 0;
  /// Pinned buffers keep a private slot; drawn hatched.
  bool pinned = false;
};

struct MemoryLayoutPicture {
  std::string title;
  llvm::ArrayRef<LayoutBox> boxes;
  int64_t capacityBytes = 0;
  int64_t peakBytes = 0;
  int64_t lowerBoundBytes = 0;
  /// Program points, for the time axis (0 when unknown: taken from boxes).
  int64_t numProgramPoints = 0;
};

/// One op instance in a pipelined schedule.
struct ScheduleBox {
  std::string name;
  std::string unit;
  int64_t stage = 0;
  /// The loop iteration this instance belongs to.
  int64_t iteration = 0;
  int64_t startCycle = 0;
  int64_t durationCycles = 1;
};

struct SchedulePicture {
  std::string title;
  llvm::ArrayRef<ScheduleBox> boxes;
  /// Cycle at which the steady-state kernel starts and ends; the rest is
  /// prologue before and epilogue after.
  int64_t kernelStartCycle = 0;
  int64_t kernelEndCycle = 0;
  int64_t initiationInterval = 0;
};

/// Renders SVG text.
std::string renderMemoryLayoutSvg(const MemoryLayoutPicture &picture);
std::string renderScheduleSvg(const SchedulePicture &picture);

/// The directory decisions are drawn into: set by hwsched-opt's
/// --hwsched-svg-dir, else $HWSCHED_SVG_DIR; empty means "do not draw".
void setPictureDirectory(llvm::StringRef dir);
std::string getPictureDirectory();

/// Writes `svg` to `<dir>/<stem>.svg`, replacing an older picture of the same
/// stem (the stem is sanitized; callers make it unique per decision, e.g.
/// from the scope's symbol name). Returns the path written.
llvm::Expected<std::string> writePicture(llvm::StringRef dir,
                                         llvm::StringRef stem,
                                         llvm::StringRef svg);

} // namespace hwsched

#endif // HWSCHED_SUPPORT_DECISIONPICTURES_H
