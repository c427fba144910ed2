//===- DecisionPictures.cpp - SVG pictures of hwsched decisions -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Support/DecisionPictures.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <map>

using namespace hwsched;

namespace {
/// Colours that stay distinguishable for the few stages and many buffers a
/// picture shows.
constexpr const char *kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                    "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                                    "#9c755f", "#bab0ac"};

std::string escapeXml(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      // Control characters are not allowed in XML 1.0 text.
      if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t')
        out += c;
    }
  }
  return out;
}

std::string formatBytes(int64_t bytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (bytes >= 1024 && bytes % 1024 == 0)
    os << bytes / 1024 << " KiB";
  else if (bytes >= 4096)
    os << llvm::format("%.1f KiB", bytes / 1024.0);
  else
    os << bytes << " B";
  return text;
}

/// Coordinates with two decimals: raw_ostream prints doubles in exponent
/// form, which is valid SVG but unreadable when diffing pictures.
std::string fmt(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.2f", value);
  return text;
}

struct SvgCanvas {
  std::string text;
  llvm::raw_string_ostream os{text};

  SvgCanvas(double width, double height) {
    os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
       << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << fmt(width)
       << "\" height=\"" << fmt(height) << "\" viewBox=\"0 0 " << fmt(width)
       << " " << fmt(height)
       << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
       << "<rect x=\"0\" y=\"0\" width=\"" << fmt(width) << "\" height=\""
       << fmt(height) << "\" fill=\"white\"/>\n";
  }
  void rect(double x, double y, double w, double h, llvm::StringRef fill,
            llvm::StringRef extra = "", llvm::StringRef tooltip = "") {
    os << "<rect x=\"" << fmt(x) << "\" y=\"" << fmt(y) << "\" width=\""
       << fmt(std::max(w, 0.5)) << "\" height=\"" << fmt(std::max(h, 0.5))
       << "\" fill=\"" << fill << "\" " << extra << ">";
    if (!tooltip.empty())
      os << "<title>" << escapeXml(tooltip) << "</title>";
    os << "</rect>\n";
  }
  void line(double x1, double y1, double x2, double y2, llvm::StringRef stroke,
            llvm::StringRef extra = "") {
    os << "<line x1=\"" << fmt(x1) << "\" y1=\"" << fmt(y1) << "\" x2=\""
       << fmt(x2) << "\" y2=\"" << fmt(y2) << "\" stroke=\"" << stroke << "\" "
       << extra << "/>\n";
  }
  void label(double x, double y, llvm::StringRef text,
             llvm::StringRef extra = "") {
    os << "<text x=\"" << fmt(x) << "\" y=\"" << fmt(y) << "\" " << extra << ">"
       << escapeXml(text) << "</text>\n";
  }
  std::string finish() {
    os << "</svg>\n";
    return text;
  }
};
} // namespace

std::string hwsched::renderMemoryLayoutSvg(const MemoryLayoutPicture &p) {
  const double left = 90, top = 50, plotW = 760, plotH = 420, bottom = 70;
  int64_t points = p.numProgramPoints;
  int64_t maxByte = p.peakBytes;
  for (const LayoutBox &b : p.boxes) {
    points = std::max(points, b.end);
    maxByte = std::max(maxByte, b.offset + b.size);
  }
  // Scale to the buffers, not to a capacity that may dwarf them; the
  // capacity line is drawn only when it is on the same scale.
  bool capacityOnScale = p.capacityBytes > 0 && p.capacityBytes <= 2 * maxByte;
  if (capacityOnScale)
    maxByte = std::max(maxByte, p.capacityBytes);
  points = std::max<int64_t>(points, 1);
  maxByte = std::max<int64_t>(maxByte, 1);
  double sx = plotW / points, sy = plotH / (maxByte * 1.05);
  auto y = [&](int64_t byte) { return top + plotH - byte * sy; };

  SvgCanvas svg(left + plotW + 30, top + plotH + bottom);
  svg.label(left, 24, p.title, "font-size=\"15\" font-weight=\"bold\"");
  svg.label(left, 40,
            "peak " + formatBytes(p.peakBytes) + ", lower bound " +
                formatBytes(p.lowerBoundBytes) + ", capacity " +
                formatBytes(p.capacityBytes));
  svg.rect(left, top, plotW, plotH, "#f7f7f7", "stroke=\"#999\"");
  svg.os << "<defs><pattern id=\"pinned\" width=\"6\" height=\"6\" "
            "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
            "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#333\" "
            "stroke-width=\"2\"/></pattern></defs>\n";
  for (auto [i, b] : llvm::enumerate(p.boxes)) {
    double bx = left + b.start * sx, bw = (b.end - b.start) * sx;
    double by = y(b.offset + b.size), bh = b.size * sy;
    std::string tip = b.name + ": bytes [" + std::to_string(b.offset) + ", " +
                      std::to_string(b.offset + b.size) + "), live [" +
                      std::to_string(b.start) + ", " + std::to_string(b.end) +
                      ")" + (b.pinned ? ", pinned" : "");
    svg.rect(bx, by, bw, bh, kPalette[i % std::size(kPalette)],
             "stroke=\"black\" stroke-width=\"0.6\" fill-opacity=\"0.85\"",
             tip);
    if (b.pinned)
      svg.rect(bx, by, bw, bh, "url(#pinned)", "fill-opacity=\"0.4\"");
    if (bh >= 12 && bw >= 30)
      svg.label(bx + 3, by + std::min(bh, 14.0) - 2, b.name,
                "font-size=\"10\" fill=\"white\"");
  }
  // An off-scale capacity is named above the frame, away from the peak
  // line, which it would otherwise seem to label.
  if (p.capacityBytes > 0 && !capacityOnScale) {
    svg.label(left + plotW - 300, 40,
              "capacity " + formatBytes(p.capacityBytes) +
                  " (off the scale, above the plot)",
              "fill=\"#d62728\"");
  } else if (p.capacityBytes > 0) {
    svg.line(left, y(p.capacityBytes), left + plotW, y(p.capacityBytes),
             "#d62728", "stroke-width=\"2\" stroke-dasharray=\"6,4\"");
    svg.label(left + plotW - 140, y(p.capacityBytes) - 4,
              "capacity " + formatBytes(p.capacityBytes), "fill=\"#d62728\"");
  }
  if (p.peakBytes > 0) {
    svg.line(left, y(p.peakBytes), left + plotW, y(p.peakBytes), "#333",
             "stroke-width=\"1\" stroke-dasharray=\"2,3\"");
    svg.label(left + 4, y(p.peakBytes) - 3, "peak " + formatBytes(p.peakBytes),
              "font-size=\"10\" fill=\"#333\"");
  }
  // Axes: a few byte ticks and the program-time axis.
  for (int t = 0; t <= 4; ++t) {
    int64_t byte = maxByte * t / 4;
    svg.label(4, y(byte) + 4, formatBytes(byte), "font-size=\"10\"");
    svg.line(left - 4, y(byte), left, y(byte), "#333");
  }
  svg.label(left + plotW / 2 - 60, top + plotH + 30,
            "program point (op order in the scope)");
  svg.label(left, top + plotH + 16, "0", "font-size=\"10\"");
  svg.label(left + plotW - 20, top + plotH + 16, std::to_string(points),
            "font-size=\"10\"");
  return svg.finish();
}

std::string hwsched::renderScheduleSvg(const SchedulePicture &p) {
  // Rows are units, in first-appearance order.
  std::vector<std::string> units;
  int64_t endCycle = 1, maxStage = 0;
  for (const ScheduleBox &b : p.boxes) {
    if (!llvm::is_contained(units, b.unit))
      units.push_back(b.unit);
    endCycle = std::max(endCycle, b.startCycle + b.durationCycles);
    maxStage = std::max(maxStage, b.stage);
  }
  const double left = 110, top = 60, rowH = 46, plotW = 780;
  double plotH = rowH * std::max<size_t>(units.size(), 1);
  double sx = plotW / endCycle;
  SvgCanvas svg(left + plotW + 30, top + plotH + 90);
  svg.label(left, 24, p.title, "font-size=\"15\" font-weight=\"bold\"");
  svg.label(left, 42,
            "initiation interval " + std::to_string(p.initiationInterval) +
                " cycles, " + std::to_string(maxStage + 1) + " stages");
  // Prologue / kernel / epilogue bands.
  auto band = [&](int64_t from, int64_t to, llvm::StringRef name,
                  llvm::StringRef fill) {
    if (to <= from)
      return;
    svg.rect(left + from * sx, top, (to - from) * sx, plotH, fill);
    svg.label(left + from * sx + 3, top + plotH + 32, name, "font-size=\"11\"");
  };
  band(0, p.kernelStartCycle, "prologue", "#fdf1e2");
  band(p.kernelStartCycle, p.kernelEndCycle, "kernel (steady state)",
       "#e8f3e6");
  band(p.kernelEndCycle, endCycle, "epilogue", "#eae6f3");
  for (auto [row, unit] : llvm::enumerate(units)) {
    double ry = top + row * rowH;
    svg.label(6, ry + rowH / 2 + 4, unit);
    svg.line(left, ry + rowH, left + plotW, ry + rowH, "#ccc");
  }
  for (const ScheduleBox &b : p.boxes) {
    size_t row = llvm::find(units, b.unit) - units.begin();
    double bx = left + b.startCycle * sx, bw = b.durationCycles * sx;
    double by = top + row * rowH + 6, bh = rowH - 12;
    std::string tip = b.name + " (iteration " + std::to_string(b.iteration) +
                      ", stage " + std::to_string(b.stage) + ", cycles " +
                      std::to_string(b.startCycle) + "-" +
                      std::to_string(b.startCycle + b.durationCycles) + ")";
    svg.rect(bx, by, bw, bh, kPalette[b.stage % std::size(kPalette)],
             "stroke=\"black\" stroke-width=\"0.5\"", tip);
    if (bw >= 26)
      svg.label(bx + 2, by + bh / 2 + 4,
                "i" + std::to_string(b.iteration) + " s" +
                    std::to_string(b.stage),
                "font-size=\"9\" fill=\"white\"");
  }
  // Stage legend.
  for (int64_t s = 0; s <= maxStage; ++s) {
    double lx = left + s * 90;
    svg.rect(lx, top + plotH + 46, 14, 14, kPalette[s % std::size(kPalette)]);
    svg.label(lx + 18, top + plotH + 58, "stage " + std::to_string(s));
  }
  svg.label(left + plotW - 80, top + plotH + 16,
            "cycles " + std::to_string(endCycle), "font-size=\"10\"");
  return svg.finish();
}

static std::string &pictureDirectoryOverride() {
  static std::string dir;
  return dir;
}

void hwsched::setPictureDirectory(llvm::StringRef dir) {
  pictureDirectoryOverride() = dir.str();
}

std::string hwsched::getPictureDirectory() {
  if (!pictureDirectoryOverride().empty())
    return pictureDirectoryOverride();
  if (const char *env = std::getenv("HWSCHED_SVG_DIR"))
    return env;
  return "";
}

llvm::Expected<std::string> hwsched::writePicture(llvm::StringRef dir,
                                                  llvm::StringRef stem,
                                                  llvm::StringRef svg) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create picture directory '" +
                                           dir + "': " + ec.message());
  std::string clean;
  for (char c : stem)
    clean += (llvm::isAlnum(c) || c == '-' || c == '_') ? c : '_';
  if (clean.empty())
    clean = "decision";
  // Overwrite: the same input must give the same files, run after run.
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, clean + ".svg");
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError(ec, "cannot write '" + path +
                                           "': " + ec.message());
  out << svg;
  return std::string(path);
}
