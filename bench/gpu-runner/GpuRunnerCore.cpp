//===- GpuRunnerCore.cpp - CPU-side parts of hwsched-gpu-run --------------===//

#include "GpuRunnerCore.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace llvm;

namespace hwsched {
namespace gpurunner {

static Error usageError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

StringRef toString(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  case ElementType::TF32:
    return "tf32";
  }
  llvm_unreachable("element type");
}

unsigned storageBytes(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 ? 2 : 4;
}

StringRef toString(Epilogue epilogue) {
  switch (epilogue) {
  case Epilogue::None:
    return "none";
  case Epilogue::Bias:
    return "bias";
  case Epilogue::BiasRelu:
    return "bias-relu";
  case Epilogue::Relu:
    return "relu";
  }
  llvm_unreachable("epilogue");
}

StringRef toString(Buffer buffer) {
  switch (buffer) {
  case Buffer::A:
    return "A";
  case Buffer::B:
    return "B";
  case Buffer::C:
    return "C";
  case Buffer::Bias:
    return "bias";
  case Buffer::TmapA:
    return "tmapA";
  case Buffer::TmapB:
    return "tmapB";
  }
  llvm_unreachable("buffer");
}

std::string Dim3::str() const {
  return (Twine(x) + "," + Twine(y) + "," + Twine(z)).str();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

std::string usage() {
  return R"(usage: hwsched-gpu-run KERNEL.ptx --m M --n N --k K --grid X[,Y[,Z]] [options]

Loads a GPU kernel produced by an hwsched schedule (PTX), launches it on
C = epilogue(A x B) with deterministic inputs, checks the result against
cuBLAS (cublasGemmEx, f32 accumulation) and times both with CUDA events.

  --kernel NAME        the .entry to launch (default: the PTX's only entry)
  --m M --n N --k K    problem size; A is MxK, B is KxN, C is MxN (row-major)
  --type T             A and B element type: f16, bf16, f32 (default) or
                       tf32 (f32 data, cuBLAS in CUBLAS_COMPUTE_32F_FAST_TF32)
  --b-layout kn|nk     B stored KxN (default) or NxK (matmul_transpose_b)
  --grid X[,Y[,Z]]     grid size in blocks
  --block X[,Y[,Z]]    block size in threads (default: the entry's .reqntid,
                       else its .maxntid, which MLIR writes for
                       gpu.known_block_size)
  --smem BYTES         dynamic shared memory per block (default 0; above
                       48 KiB the kernel is opted in with cuFuncSetAttribute)
  --args LIST          the kernel's memref/scalar arguments in order, from
                       A, B, C, bias, tmapA, tmapB, i32=V, i64=V, f32=V
                       (default A,B,C); tmapA/tmapB: the device address of
                       a CUtensorMap over A/B (one 64-bit pointer)
  --tma-box-a I,O      TMA box of tmapA in elements, innermost first
  --tma-box-b I,O      TMA box of tmapB in elements, innermost first
  --tma-swizzle S      none, 32, 64 or 128 (default): swizzle of both maps
  --tma-l2-promotion P none, 64, 128 or 256 (default): L2 promotion bytes
  --abi descriptor|bare  memref calling convention (default descriptor:
                       allocated ptr, aligned ptr, offset, sizes, strides)
  --epilogue E         none (default), bias, bias-relu or relu: applied on
                       the host to cuBLAS' product before the comparison
  --c-init nan|zero    C before the checked launch (default nan: unwritten
                       elements fail the check; zero for C += A x B kernels)
  --tolerance T        per-type tolerance override (see README)
  --warmup N           untimed launches before timing (default 5)
  --reps N             timed launches of each (default 20), in paired rounds:
                       kernel, cuBLAS, kernel, cuBLAS, ...
  --flush-l2           overwrite the L2 before each timed launch (cold
                       inputs; default: warm)
  --seed S             input generator seed (default 1)
  --device D           CUDA device ordinal (default 0)
  --json FILE          also write the report as JSON
  --dry-run            no device: parse the PTX, check the kernel's
                       parameters against the ABI, assemble with ptxas
  --ptxas PATH|none    dry run: ptxas to use (default: PATH, then
                       /usr/local/cuda/bin/ptxas), none to skip
  --arch sm_XX         dry run: ptxas target (default: the PTX's .target)
)";
}

Expected<Dim3> parseDim3(StringRef text) {
  SmallVector<StringRef, 3> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return usageError("expected X[,Y[,Z]], got '" + text + "'");
  unsigned values[3] = {1, 1, 1};
  for (auto [i, part] : llvm::enumerate(parts)) {
    if (part.trim().getAsInteger(10, values[i]) || values[i] == 0)
      return usageError("expected positive integers X[,Y[,Z]], got '" + text +
                        "'");
  }
  return Dim3{values[0], values[1], values[2]};
}

Expected<TmaBox> parseTmaBox(StringRef flag, StringRef text) {
  auto [inner, outer] = text.split(',');
  TmaBox box;
  if (inner.trim().getAsInteger(10, box.inner) ||
      outer.trim().getAsInteger(10, box.outer) || outer.contains(','))
    return usageError(flag +
                      " expects INNER,OUTER (box dimensions in "
                      "elements, innermost first), got '" +
                      text + "'");
  return box;
}

Expected<std::vector<ArgSpec>> parseArgList(StringRef text) {
  std::vector<ArgSpec> result;
  SmallVector<StringRef> items;
  text.split(items, ',');
  // A, B, C, bias, tmapA, tmapB: each at most once.
  bool seen[6] = {false, false, false, false, false, false};
  for (StringRef item : items) {
    item = item.trim();
    ArgSpec spec;
    auto [head, value] = item.split('=');
    std::string lower = head.lower();
    int buffer = -1;
    if (lower == "a")
      spec.kind = ArgKind::A, buffer = 0;
    else if (lower == "b")
      spec.kind = ArgKind::B, buffer = 1;
    else if (lower == "c")
      spec.kind = ArgKind::C, buffer = 2;
    else if (lower == "bias")
      spec.kind = ArgKind::Bias, buffer = 3;
    else if (lower == "tmapa")
      spec.kind = ArgKind::TmapA, buffer = 4;
    else if (lower == "tmapb")
      spec.kind = ArgKind::TmapB, buffer = 5;
    else if (lower == "i32" || lower == "i64" || lower == "index") {
      spec.kind = lower == "i32" ? ArgKind::I32 : ArgKind::I64;
      if (value.empty() || value.getAsInteger(0, spec.intValue))
        return usageError("--args: '" + item +
                          "' needs an integer value, e.g. i64=4");
    } else if (lower == "f32") {
      spec.kind = ArgKind::F32;
      double v;
      if (value.empty() || value.getAsDouble(v))
        return usageError("--args: '" + item +
                          "' needs a number, e.g. f32=0.5");
      spec.floatValue = float(v);
    } else {
      return usageError("--args: unknown argument '" + item +
                        "' (expected A, B, C, bias, tmapA, tmapB, i32=V, "
                        "i64=V or f32=V)");
    }
    if (buffer >= 0) {
      if (!value.empty())
        return usageError("--args: '" + item + "' takes no value");
      if (seen[buffer])
        return usageError("--args: '" + head + "' appears twice");
      seen[buffer] = true;
    }
    result.push_back(spec);
  }
  // A kernel that reads an operand through TMA only takes its map, not its
  // descriptor; a mix of both is allowed.
  if (!seen[0] && !seen[4])
    return usageError("--args: the list must contain A or tmapA (got '" + text +
                      "')");
  if (!seen[1] && !seen[5])
    return usageError("--args: the list must contain B or tmapB (got '" + text +
                      "')");
  if (!seen[2])
    return usageError("--args: the list must contain C (got '" + text + "')");
  return result;
}

std::string describeArgs(ArrayRef<ArgSpec> args) {
  std::string out;
  raw_string_ostream os(out);
  ListSeparator sep(",");
  for (const ArgSpec &arg : args) {
    os << sep;
    switch (arg.kind) {
    case ArgKind::A:
      os << "A";
      break;
    case ArgKind::B:
      os << "B";
      break;
    case ArgKind::C:
      os << "C";
      break;
    case ArgKind::Bias:
      os << "bias";
      break;
    case ArgKind::TmapA:
      os << "tmapA";
      break;
    case ArgKind::TmapB:
      os << "tmapB";
      break;
    case ArgKind::I32:
      os << "i32=" << arg.intValue;
      break;
    case ArgKind::I64:
      os << "i64=" << arg.intValue;
      break;
    case ArgKind::F32:
      os << "f32=" << arg.floatValue;
      break;
    }
  }
  return out;
}

template <typename T>
static Error parseNumber(StringRef flag, StringRef text, T &out, T minimum) {
  if (text.getAsInteger(0, out) || out < minimum)
    return usageError(flag + " expects an integer >= " + Twine(minimum) +
                      ", got '" + text + "'");
  return Error::success();
}

Expected<Options> parseOptions(ArrayRef<std::string> args) {
  Options o;
  std::optional<std::string> argList;
  bool haveM = false, haveN = false, haveK = false;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (arg == "--help" || arg == "-h") {
      o.help = true;
      return o;
    }
    if (arg == "--dry-run") {
      o.dryRun = true;
      continue;
    }
    if (arg == "--flush-l2") {
      o.flushL2 = true;
      continue;
    }
    if (!arg.starts_with("-")) {
      if (!o.ptxPath.empty())
        return usageError("more than one PTX file: '" + o.ptxPath + "' and '" +
                          arg + "'");
      o.ptxPath = arg.str();
      continue;
    }
    // --flag=value or --flag value.
    StringRef flag = arg, value;
    bool inlineValue = false;
    if (arg.contains('=')) {
      std::tie(flag, value) = arg.split('=');
      inlineValue = true;
    }
    auto takeValue = [&]() -> Expected<StringRef> {
      if (inlineValue)
        return value;
      if (i + 1 >= args.size())
        return usageError(flag + " needs a value");
      return StringRef(args[++i]);
    };
    Expected<StringRef> v = takeValue();
    if (!v)
      return v.takeError();
    if (flag == "--kernel") {
      o.kernelName = v->str();
    } else if (flag == "--m") {
      haveM = true;
      if (Error e = parseNumber<int64_t>(flag, *v, o.m, 1))
        return std::move(e);
    } else if (flag == "--n") {
      haveN = true;
      if (Error e = parseNumber<int64_t>(flag, *v, o.n, 1))
        return std::move(e);
    } else if (flag == "--k") {
      haveK = true;
      if (Error e = parseNumber<int64_t>(flag, *v, o.k, 1))
        return std::move(e);
    } else if (flag == "--type") {
      if (*v == "f16")
        o.type = ElementType::F16;
      else if (*v == "bf16")
        o.type = ElementType::BF16;
      else if (*v == "f32")
        o.type = ElementType::F32;
      else if (*v == "tf32")
        o.type = ElementType::TF32;
      else
        return usageError("--type must be f16, bf16, f32 or tf32, got '" + *v +
                          "'");
    } else if (flag == "--b-layout") {
      if (*v != "kn" && *v != "nk")
        return usageError("--b-layout must be kn or nk, got '" + *v + "'");
      o.bTransposed = *v == "nk";
    } else if (flag == "--grid" || flag == "--block") {
      Expected<Dim3> d = parseDim3(*v);
      if (!d)
        return usageError(flag + ": " + toString(d.takeError()));
      (flag == "--grid" ? o.grid : o.block) = *d;
    } else if (flag == "--smem") {
      if (Error e = parseNumber<uint64_t>(flag, *v, o.dynamicSmemBytes, 0))
        return std::move(e);
    } else if (flag == "--args") {
      argList = v->str();
    } else if (flag == "--abi") {
      if (*v != "descriptor" && *v != "bare")
        return usageError("--abi must be descriptor or bare, got '" + *v + "'");
      o.abi = *v == "bare" ? MemrefAbi::BarePointer : MemrefAbi::Descriptor;
    } else if (flag == "--epilogue") {
      if (*v == "none")
        o.epilogue = Epilogue::None;
      else if (*v == "bias")
        o.epilogue = Epilogue::Bias;
      else if (*v == "bias-relu")
        o.epilogue = Epilogue::BiasRelu;
      else if (*v == "relu")
        o.epilogue = Epilogue::Relu;
      else
        return usageError(
            "--epilogue must be none, bias, bias-relu or relu, got '" + *v +
            "'");
    } else if (flag == "--c-init") {
      if (*v != "nan" && *v != "zero")
        return usageError("--c-init must be nan or zero, got '" + *v + "'");
      o.cInit = *v == "zero" ? CInit::Zero : CInit::NaN;
    } else if (flag == "--tolerance") {
      double t;
      if (v->getAsDouble(t) || !(t > 0))
        return usageError("--tolerance expects a positive number, got '" + *v +
                          "'");
      o.tolerance = t;
    } else if (flag == "--warmup") {
      if (Error e = parseNumber<unsigned>(flag, *v, o.warmup, 0))
        return std::move(e);
    } else if (flag == "--reps") {
      if (Error e = parseNumber<unsigned>(flag, *v, o.reps, 1))
        return std::move(e);
    } else if (flag == "--seed") {
      if (Error e = parseNumber<uint64_t>(flag, *v, o.seed, 0))
        return std::move(e);
    } else if (flag == "--device") {
      if (Error e = parseNumber<int>(flag, *v, o.device, 0))
        return std::move(e);
    } else if (flag == "--tma-box-a" || flag == "--tma-box-b") {
      Expected<TmaBox> box = parseTmaBox(flag, *v);
      if (!box)
        return box.takeError();
      (flag == "--tma-box-a" ? o.tmaBoxA : o.tmaBoxB) = *box;
    } else if (flag == "--tma-swizzle") {
      if (*v == "none")
        o.tmaSwizzleBytes = 0;
      else if (*v == "32" || *v == "64" || *v == "128")
        v->getAsInteger(10, o.tmaSwizzleBytes);
      else
        return usageError("--tma-swizzle must be none, 32, 64 or 128, got '" +
                          *v + "'");
    } else if (flag == "--tma-l2-promotion") {
      if (*v == "none")
        o.tmaL2PromotionBytes = 0;
      else if (*v == "64" || *v == "128" || *v == "256")
        v->getAsInteger(10, o.tmaL2PromotionBytes);
      else
        return usageError(
            "--tma-l2-promotion must be none, 64, 128 or 256, got '" + *v +
            "'");
    } else if (flag == "--json") {
      o.jsonPath = v->str();
    } else if (flag == "--ptxas") {
      o.ptxasPath = v->str();
    } else if (flag == "--arch") {
      if (!v->starts_with("sm_"))
        return usageError("--arch expects sm_XX, got '" + *v + "'");
      o.arch = v->str();
    } else {
      return usageError("unknown option '" + flag + "' (see --help)");
    }
  }
  if (o.ptxPath.empty())
    return usageError("no PTX file given (see --help)");
  if (!haveM || !haveN || !haveK)
    return usageError("--m, --n and --k are required");
  if (!o.grid)
    return usageError("--grid is required (the schedule's block tiling "
                      "decides it; see the README)");
  Expected<std::vector<ArgSpec>> parsed =
      parseArgList(argList ? StringRef(*argList) : StringRef("A,B,C"));
  if (!parsed)
    return parsed.takeError();
  o.args = std::move(*parsed);
  bool hasBias = llvm::any_of(
      o.args, [](const ArgSpec &a) { return a.kind == ArgKind::Bias; });
  bool needsBias =
      o.epilogue == Epilogue::Bias || o.epilogue == Epilogue::BiasRelu;
  if (hasBias != needsBias)
    return usageError(
        hasBias ? "--args names a bias but --epilogue is '" +
                      toString(o.epilogue) + "' (use bias or bias-relu)"
                : "--epilogue " + toString(o.epilogue) +
                      " needs 'bias' in --args (e.g. --args A,B,bias,C)");
  // A box without its map is most likely a --args typo: refuse it rather
  // than run a kernel that takes descriptors.
  auto checkBoxHasMap = [&](bool hasBox, ArgKind kind, StringRef flag,
                            StringRef map) -> Error {
    bool hasMap =
        llvm::any_of(o.args, [&](const ArgSpec &a) { return a.kind == kind; });
    if (!hasBox || hasMap)
      return Error::success();
    return usageError(flag + " is given, but --args " + describeArgs(o.args) +
                      " has no " + map +
                      " (the kernel would not receive the tensor map)");
  };
  if (Error e = checkBoxHasMap(o.tmaBoxA.has_value(), ArgKind::TmapA,
                               "--tma-box-a", "tmapA"))
    return std::move(e);
  if (Error e = checkBoxHasMap(o.tmaBoxB.has_value(), ArgKind::TmapB,
                               "--tma-box-b", "tmapB"))
    return std::move(e);
  // The tensor-map checks need no device: a dry run reports them too.
  Expected<std::vector<TensorMapParams>> maps = tensorMapParams(o);
  if (!maps)
    return maps.takeError();
  return o;
}

//===----------------------------------------------------------------------===//
// PTX signatures
//===----------------------------------------------------------------------===//

unsigned PtxParam::bytes() const {
  if (arrayBytes)
    return unsigned(arrayBytes);
  StringRef t = type;
  unsigned bits = 0;
  if (t.size() > 1 && !t.drop_front().getAsInteger(10, bits))
    return bits / 8;
  return 0;
}

/// PTX with // and /* */ comments replaced by spaces.
static std::string stripComments(StringRef ptx) {
  std::string out;
  out.reserve(ptx.size());
  for (size_t i = 0; i < ptx.size();) {
    if (ptx.substr(i).starts_with("//")) {
      size_t end = ptx.find('\n', i);
      i = end == StringRef::npos ? ptx.size() : end;
      out.push_back(' ');
    } else if (ptx.substr(i).starts_with("/*")) {
      size_t end = ptx.find("*/", i + 2);
      i = end == StringRef::npos ? ptx.size() : end + 2;
      out.push_back(' ');
    } else {
      out.push_back(ptx[i++]);
    }
  }
  return out;
}

static Expected<Dim3> parseDirectiveDims(StringRef text, StringRef directive) {
  SmallVector<StringRef, 3> parts;
  text.split(parts, ',');
  unsigned values[3] = {1, 1, 1};
  if (parts.empty() || parts.size() > 3)
    return usageError("PTX: malformed " + directive + " '" + text + "'");
  for (auto [i, part] : llvm::enumerate(parts))
    if (part.trim().getAsInteger(10, values[i]))
      return usageError("PTX: malformed " + directive + " '" + text + "'");
  return Dim3{values[0], values[1], values[2]};
}

Expected<PtxModule> parsePtx(StringRef text) {
  std::string clean = stripComments(text);
  StringRef ptx = clean;
  PtxModule module;
  auto wordAfter = [&](StringRef directive) -> std::string {
    size_t pos = ptx.find(directive);
    if (pos == StringRef::npos)
      return "";
    StringRef rest = ptx.substr(pos + directive.size()).ltrim();
    return rest.take_until([](char c) { return isSpace(c) || c == ','; }).str();
  };
  module.target = wordAfter(".target");
  module.version = wordAfter(".version");
  size_t pos = 0;
  while ((pos = ptx.find(".entry", pos)) != StringRef::npos) {
    // A whole word: not e.g. ".entry_point".
    size_t nameStart = pos + strlen(".entry");
    if (nameStart < ptx.size() && !isSpace(ptx[nameStart])) {
      pos = nameStart;
      continue;
    }
    StringRef rest = ptx.substr(nameStart).ltrim();
    PtxEntry entry;
    entry.name = rest.take_until([](char c) {
                       return isSpace(c) || c == '(' || c == '{';
                     })
                     .str();
    if (entry.name.empty())
      return usageError("PTX: .entry without a name");
    StringRef afterName = rest.drop_front(entry.name.size()).ltrim();
    StringRef paramText;
    if (afterName.starts_with("(")) {
      size_t close = afterName.find(')');
      if (close == StringRef::npos)
        return usageError("PTX: unterminated parameter list of .entry " +
                          entry.name);
      paramText = afterName.slice(1, close);
      afterName = afterName.drop_front(close + 1);
    }
    SmallVector<StringRef> params;
    paramText.split(params, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef param : params) {
      SmallVector<StringRef> words;
      param.split(words, ' ', -1, false);
      // Tabs and newlines too.
      SmallVector<StringRef> tokens;
      for (StringRef w : words) {
        SmallVector<StringRef> sub;
        w.split(sub, '\t', -1, false);
        for (StringRef s : sub) {
          StringRef t = s.trim();
          if (!t.empty())
            tokens.push_back(t);
        }
      }
      if (tokens.empty())
        continue;
      if (tokens.front() != ".param")
        return usageError("PTX: .entry " + entry.name +
                          ": unexpected parameter '" + param.trim() + "'");
      PtxParam p;
      for (size_t i = 1; i < tokens.size(); ++i) {
        StringRef tok = tokens[i];
        if (tok == ".align" || tok == ".ptr" || tok == ".global" ||
            tok == ".const" || tok == ".shared" || tok == ".local") {
          if (tok == ".align")
            ++i; // skip the alignment value
          continue;
        }
        if (tok.starts_with(".")) {
          p.type = tok.drop_front().str();
          continue;
        }
        // The name, possibly with [N].
        StringRef name = tok;
        size_t bracket = name.find('[');
        if (bracket != StringRef::npos) {
          uint64_t count = 0;
          if (name.substr(bracket + 1).rtrim(']').getAsInteger(10, count))
            return usageError("PTX: .entry " + entry.name +
                              ": malformed array parameter '" + tok + "'");
          PtxParam elem;
          elem.type = p.type;
          p.arrayBytes = count * elem.bytes();
          name = name.take_front(bracket);
        }
        p.name = name.str();
      }
      if (p.type.empty() || p.name.empty())
        return usageError("PTX: .entry " + entry.name +
                          ": malformed parameter '" + param.trim() + "'");
      entry.params.push_back(std::move(p));
    }
    // Performance directives between ')' and '{'.
    size_t brace = afterName.find('{');
    StringRef directives =
        brace == StringRef::npos ? afterName : afterName.take_front(brace);
    for (StringRef directive : {".reqntid", ".maxntid"}) {
      size_t d = directives.find(directive);
      if (d == StringRef::npos)
        continue;
      StringRef dims = directives.substr(d + directive.size());
      // Numbers and commas up to the next directive.
      size_t end = dims.find_first_not_of("0123456789, \t\r\n");
      Expected<Dim3> parsed =
          parseDirectiveDims(dims.take_front(end).trim(), directive);
      if (!parsed)
        return parsed.takeError();
      (directive == StringRef(".reqntid") ? entry.reqntid : entry.maxntid) =
          *parsed;
    }
    module.entries.push_back(std::move(entry));
    pos = nameStart;
  }
  if (module.entries.empty())
    return usageError("PTX: no .entry (kernel) in the module");
  return module;
}

Expected<const PtxEntry *> selectEntry(const PtxModule &module,
                                       StringRef name) {
  std::string names;
  raw_string_ostream os(names);
  ListSeparator sep(", ");
  for (const PtxEntry &e : module.entries) {
    if (!name.empty() && e.name == name)
      return &e;
    os << sep << e.name;
  }
  if (name.empty()) {
    if (module.entries.size() == 1)
      return &module.entries.front();
    return usageError("the PTX has " + Twine(module.entries.size()) +
                      " kernels (" + names + "): choose one with --kernel");
  }
  return usageError("no kernel '" + name + "' in the PTX (it has: " + names +
                    ")");
}

Expected<Dim3> resolveBlock(const Options &options, const PtxEntry &entry) {
  if (!options.block) {
    // MLIR's NVVM lowering writes gpu.known_block_size as .maxntid (and
    // nvvm.reqntid as .reqntid): either is the block the schedule mapped.
    if (entry.reqntid)
      return *entry.reqntid;
    if (entry.maxntid)
      return *entry.maxntid;
    return usageError("kernel " + entry.name +
                      " declares neither .reqntid nor .maxntid: give "
                      "--block X,Y,Z");
  }
  Dim3 block = *options.block;
  if (entry.reqntid && !(*entry.reqntid == block))
    return usageError("--block " + block.str() + " differs from kernel " +
                      entry.name + "'s .reqntid " + entry.reqntid->str());
  if (entry.maxntid && block.product() > entry.maxntid->product())
    return usageError("--block " + block.str() + " has more threads than " +
                      entry.name + "'s .maxntid " + entry.maxntid->str());
  if (block.product() > 1024)
    return usageError("--block " + block.str() + " has more than 1024 threads");
  return block;
}

std::optional<uint64_t> sharedMemoryOptinLimit(StringRef arch) {
  // "sm_90a" -> 90; the family suffixes (a, f) share the base's limit.
  StringRef digits =
      arch.drop_front(arch.starts_with("sm_") ? 3 : 0).take_while([](char c) {
        return isDigit(c);
      });
  unsigned sm = 0;
  if (digits.getAsInteger(10, sm))
    return std::nullopt;
  switch (sm) {
  case 70:
  case 72:
    return 96 * 1024;
  case 75:
    return 64 * 1024;
  case 80:
  case 87:
    return 163 * 1024;
  case 86:
  case 89:
  case 120:
  case 121:
    return 99 * 1024;
  case 90:
  case 100:
  case 101:
  case 103:
  case 110:
    return 227 * 1024;
  default:
    return std::nullopt;
  }
}

Error checkSharedMemory(StringRef arch, uint64_t staticBytes,
                        uint64_t dynamicBytes) {
  std::optional<uint64_t> limit = sharedMemoryOptinLimit(arch);
  if (!limit || staticBytes + dynamicBytes <= *limit)
    return Error::success();
  return usageError(Twine(staticBytes) + " bytes of static + " +
                    Twine(dynamicBytes) +
                    " of dynamic shared memory exceed the " + Twine(*limit) +
                    " bytes one block may use on " + arch);
}

//===----------------------------------------------------------------------===//
// Argument packing
//===----------------------------------------------------------------------===//

std::vector<PackedParam> packArguments(const Options &o) {
  std::vector<PackedParam> out;
  auto addInt = [&](std::string label, uint64_t value, unsigned bytes = 8) {
    PackedParam p;
    p.label = std::move(label);
    p.bytes = bytes;
    p.immediate = value;
    out.push_back(std::move(p));
  };
  auto addMemref = [&](Buffer buffer, ArrayRef<int64_t> sizes,
                       ArrayRef<int64_t> strides) {
    std::string name = toString(buffer).str();
    PackedParam ptr;
    ptr.isPointer = true;
    ptr.buffer = buffer;
    if (o.abi == MemrefAbi::BarePointer) {
      ptr.label = name;
      out.push_back(ptr);
      return;
    }
    ptr.label = name + ".allocated";
    out.push_back(ptr);
    ptr.label = name + ".aligned";
    out.push_back(ptr);
    addInt(name + ".offset", 0);
    for (auto [i, s] : llvm::enumerate(sizes))
      addInt(name + ".sizes[" + std::to_string(i) + "]", uint64_t(s));
    for (auto [i, s] : llvm::enumerate(strides))
      addInt(name + ".strides[" + std::to_string(i) + "]", uint64_t(s));
  };
  for (auto [index, arg] : llvm::enumerate(o.args)) {
    std::string pos = "#" + std::to_string(index);
    switch (arg.kind) {
    case ArgKind::A:
      addMemref(Buffer::A, {o.m, o.k}, {o.k, 1});
      break;
    case ArgKind::B:
      if (o.bTransposed)
        addMemref(Buffer::B, {o.n, o.k}, {o.k, 1});
      else
        addMemref(Buffer::B, {o.k, o.n}, {o.n, 1});
      break;
    case ArgKind::C:
      addMemref(Buffer::C, {o.m, o.n}, {o.n, 1});
      break;
    case ArgKind::Bias:
      addMemref(Buffer::Bias, {o.n}, {1});
      break;
    case ArgKind::TmapA:
    case ArgKind::TmapB: {
      // nvgpu.tma.create.descriptor's convention: the kernel gets the
      // address of the 128-byte map in global memory, whatever the ABI.
      PackedParam p;
      p.isPointer = true;
      p.buffer = arg.kind == ArgKind::TmapA ? Buffer::TmapA : Buffer::TmapB;
      p.label = toString(p.buffer).str();
      out.push_back(std::move(p));
      break;
    }
    case ArgKind::I32:
      addInt("i32 " + pos, uint64_t(uint32_t(int32_t(arg.intValue))), 4);
      break;
    case ArgKind::I64:
      addInt("i64 " + pos, uint64_t(arg.intValue), 8);
      break;
    case ArgKind::F32: {
      uint32_t bits;
      std::memcpy(&bits, &arg.floatValue, 4);
      addInt("f32 " + pos, bits, 4);
      out.back().isFloat = true;
      break;
    }
    }
  }
  return out;
}

Error checkSignature(const PtxEntry &entry, ArrayRef<PackedParam> params,
                     const Options &options) {
  std::string abi = (options.abi == MemrefAbi::Descriptor ? "memref-descriptor"
                                                          : "bare-pointer");
  if (entry.params.size() != params.size())
    return usageError(
        "kernel " + entry.name + " takes " + Twine(entry.params.size()) +
        " parameters, but --args " + describeArgs(options.args) + " in the " +
        abi + " ABI packs " + Twine(params.size()) + " (a rank-R memref is " +
        (options.abi == MemrefAbi::Descriptor ? "3 + 2R" : "1") +
        " parameters; check --args, --abi and the kernel)");
  for (auto [i, pair] : llvm::enumerate(llvm::zip(entry.params, params))) {
    const PtxParam &ptx = std::get<0>(pair);
    const PackedParam &packed = std::get<1>(pair);
    StringRef t = ptx.type;
    bool ok;
    if (packed.isFloat)
      ok = t == "f32" || t == "b32";
    else if (packed.bytes == 8)
      ok = t == "u64" || t == "s64" || t == "b64";
    else
      ok = t == "u32" || t == "s32" || t == "b32";
    if (!ok || ptx.arrayBytes)
      return usageError("kernel " + entry.name + " parameter " + Twine(i) +
                        " (" + ptx.name + ") is ." + ptx.type +
                        (ptx.arrayBytes ? "[...]" : "") + ", but the " + abi +
                        " ABI passes " + packed.label + " there as a " +
                        Twine(packed.bytes * 8) + "-bit " +
                        (packed.isFloat     ? "float"
                         : packed.isPointer ? "pointer"
                                            : "integer"));
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// TMA tensor maps
//===----------------------------------------------------------------------===//

static StringRef dataTypeName(int dataType) {
  switch (dataType) {
  case cu::kDataTypeFloat16:
    return "FLOAT16";
  case cu::kDataTypeBfloat16:
    return "BFLOAT16";
  case cu::kDataTypeFloat32:
    return "FLOAT32";
  }
  return "?";
}

static std::string bytesOrNone(unsigned bytes) {
  return bytes ? std::to_string(bytes) + "B" : "none";
}

std::string TensorMapParams::str() const {
  std::string out;
  raw_string_ostream os(out);
  os << toString(map) << " (param " << paramIndex << ") over "
     << toString(operand) << ": " << dataTypeName(dataType) << ", rank " << rank
     << ", dims {" << globalDim[0] << ", " << globalDim[1] << "}, strides {"
     << globalStrides[0] << "} bytes, box {" << boxDim[0] << ", " << boxDim[1]
     << "}, element strides {" << elementStrides[0] << ", " << elementStrides[1]
     << "}, interleave none, swizzle " << bytesOrNone(swizzleBytes)
     << ", L2 promotion " << bytesOrNone(l2PromotionBytes) << ", OOB fill none";
  return out;
}

Expected<TensorMapParams> tensorMapParams(const Options &o, Buffer operand) {
  assert((operand == Buffer::A || operand == Buffer::B) && "A or B");
  bool isA = operand == Buffer::A;
  TensorMapParams t;
  t.operand = operand;
  t.map = isA ? Buffer::TmapA : Buffer::TmapB;
  std::string mapName = toString(t.map).str();
  std::string boxFlag = isA ? "--tma-box-a" : "--tma-box-b";
  std::vector<PackedParam> packed = packArguments(o);
  for (auto [i, p] : llvm::enumerate(packed))
    if (p.isPointer && p.buffer == t.map) {
      t.paramIndex = unsigned(i);
      break;
    }
  t.elementBytes = storageBytes(o.type);
  t.dataType = o.type == ElementType::F16    ? cu::kDataTypeFloat16
               : o.type == ElementType::BF16 ? cu::kDataTypeBfloat16
                                             : cu::kDataTypeFloat32;
  // Row-major storage: the innermost (contiguous) dimension first, the row
  // stride in bytes for the other.
  int64_t inner, outer;
  StringRef innerName, outerName;
  if (isA) {
    inner = o.k, outer = o.m, innerName = "K", outerName = "M";
  } else if (o.bTransposed) {
    inner = o.k, outer = o.n, innerName = "K", outerName = "N";
  } else {
    inner = o.n, outer = o.k, innerName = "N", outerName = "K";
  }
  t.globalDim[0] = uint64_t(inner);
  t.globalDim[1] = uint64_t(outer);
  t.globalStrides[0] = uint64_t(inner) * t.elementBytes;
  t.interleave = cu::kInterleaveNone;
  t.oobFill = cu::kOobFillNone; // out-of-bounds elements read as zero
  t.swizzleBytes = o.tmaSwizzleBytes;
  switch (o.tmaSwizzleBytes) {
  case 32:
    t.swizzle = cu::kSwizzle32B;
    break;
  case 64:
    t.swizzle = cu::kSwizzle64B;
    break;
  case 128:
    t.swizzle = cu::kSwizzle128B;
    break;
  default:
    t.swizzle = cu::kSwizzleNone;
    t.swizzleBytes = 0;
  }
  t.l2PromotionBytes = o.tmaL2PromotionBytes;
  switch (o.tmaL2PromotionBytes) {
  case 64:
    t.l2Promotion = cu::kL2Promotion64B;
    break;
  case 128:
    t.l2Promotion = cu::kL2Promotion128B;
    break;
  case 256:
    t.l2Promotion = cu::kL2Promotion256B;
    break;
  default:
    t.l2Promotion = cu::kL2PromotionNone;
    t.l2PromotionBytes = 0;
  }

  // cuTensorMapEncodeTiled's requirements (cuda.h), checked here so that a
  // dry run reports them and a device run fails before any allocation.
  const std::optional<TmaBox> &box = isA ? o.tmaBoxA : o.tmaBoxB;
  if (!box)
    return usageError("--args " + mapName + " needs " + boxFlag +
                      " INNER,OUTER (the TMA box in elements, innermost "
                      "first)");
  std::string boxText =
      (boxFlag + " " + Twine(box->inner) + "," + Twine(box->outer)).str();
  if (box->inner < 1 || box->inner > 256 || box->outer < 1 || box->outer > 256)
    return usageError(boxText + ": each box dimension must be 1..256");
  t.boxDim[0] = box->inner;
  t.boxDim[1] = box->outer;
  uint64_t innerBoxBytes = uint64_t(box->inner) * t.elementBytes;
  std::string innerBoxText =
      (Twine(box->inner) + " x " + Twine(t.elementBytes) + "-byte " +
       toString(o.type) + " = " + Twine(innerBoxBytes) + " bytes")
          .str();
  if (innerBoxBytes % 16)
    return usageError(boxText + ": the inner box dimension is " + innerBoxText +
                      ", not a multiple of 16 bytes");
  if (t.swizzleBytes && innerBoxBytes > t.swizzleBytes)
    return usageError(boxText + ": the inner box dimension is " + innerBoxText +
                      ", wider than the " + Twine(t.swizzleBytes) +
                      "-byte span of --tma-swizzle " + Twine(t.swizzleBytes));
  constexpr uint64_t kMaxDim = uint64_t(1) << 32;
  if (t.globalDim[0] > kMaxDim || t.globalDim[1] > kMaxDim)
    return usageError("--args " + mapName + ": " + toString(operand) +
                      "'s global dimensions {" + innerName + ", " + outerName +
                      "} = {" + Twine(t.globalDim[0]) + ", " +
                      Twine(t.globalDim[1]) + "} exceed TMA's 2^32");
  if (t.globalStrides[0] % 16 || t.globalStrides[0] >= (uint64_t(1) << 40))
    return usageError(
        "--args " + mapName + ": " + toString(operand) + "'s rows are " +
        Twine(t.globalStrides[0]) + " bytes apart (" + innerName + " = " +
        Twine(inner) + " x " + Twine(t.elementBytes) + "-byte " +
        toString(o.type) +
        "); TMA needs a global row stride that is a multiple of 16 bytes "
        "(and below 2^40)");
  return t;
}

Expected<std::vector<TensorMapParams>> tensorMapParams(const Options &o) {
  std::vector<TensorMapParams> out;
  for (const ArgSpec &arg : o.args) {
    if (arg.kind != ArgKind::TmapA && arg.kind != ArgKind::TmapB)
      continue;
    Expected<TensorMapParams> t =
        tensorMapParams(o, arg.kind == ArgKind::TmapA ? Buffer::A : Buffer::B);
    if (!t)
      return t.takeError();
    out.push_back(*t);
  }
  return out;
}

std::vector<std::vector<uint8_t>>
materializeParams(ArrayRef<PackedParam> params,
                  uint64_t (*address)(Buffer, void *), void *context) {
  std::vector<std::vector<uint8_t>> out;
  for (const PackedParam &p : params) {
    uint64_t value = p.isPointer ? address(p.buffer, context) : p.immediate;
    std::vector<uint8_t> bytes(p.bytes);
    // Little-endian host and device: the low bytes of the value.
    std::memcpy(bytes.data(), &value, p.bytes);
    out.push_back(std::move(bytes));
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Host data
//===----------------------------------------------------------------------===//

static uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

static float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t floatToHalfBits(float value) {
  uint32_t x = floatBits(value);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx > 0x7f800000u) // NaN: quiet, keep it NaN
    return uint16_t(sign | 0x7e00u);
  if (absx >= 0x477ff000u) // rounds to >= 65520: infinity
    return uint16_t(sign | 0x7c00u);
  if (absx < 0x38800000u) { // below the smallest normal 2^-14: subnormal
    // value / 2^-24, rounded to nearest even.
    float scaled = bitsFloat(absx) * 16777216.0f; // exact (power of two)
    float r = std::nearbyint(scaled);             // default mode: even ties
    return uint16_t(sign | uint32_t(r));
  }
  // Normal: rebias exponent, round the 13 dropped bits to nearest even.
  uint32_t mant = absx & 0x7fffffu;
  uint32_t exp = (absx >> 23) - 127 + 15;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
    ++h; // may carry into the exponent, which is right (up to infinity)
  return uint16_t(sign | h);
}

float halfBitsToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1fu;
  uint32_t mant = bits & 0x3ffu;
  if (exp == 0x1f)
    return bitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    float v = float(mant) / 16777216.0f;
    return sign ? -v : v;
  }
  return bitsFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

uint16_t floatToBf16Bits(float value) {
  uint32_t x = floatBits(value);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40u);
  uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return uint16_t((x + rounding) >> 16);
}

float bf16BitsToFloat(uint16_t bits) { return bitsFloat(uint32_t(bits) << 16); }

float roundToTf32(float value) {
  uint32_t x = floatBits(value);
  if ((x & 0x7fffffffu) >= 0x7f800000u)
    return value;
  uint32_t rounding = 0xfffu + ((x >> 13) & 1u);
  return bitsFloat((x + rounding) & ~0x1fffu);
}

static uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::vector<float> deterministicValues(uint64_t seed, size_t count,
                                       ElementType type) {
  std::vector<float> out(count);
  uint64_t base = splitmix64(seed);
  for (size_t i = 0; i < count; ++i) {
    // 24 random bits -> [-1, 1), exact in f32.
    uint64_t r = splitmix64(base + i) >> 40;
    float v = float(int64_t(r) - (int64_t(1) << 23)) / float(1 << 23);
    if (type == ElementType::F16)
      v = halfBitsToFloat(floatToHalfBits(v));
    else if (type == ElementType::BF16)
      v = bf16BitsToFloat(floatToBf16Bits(v));
    out[i] = v;
  }
  return out;
}

std::vector<uint8_t> encode(ArrayRef<float> values, ElementType type) {
  unsigned width = storageBytes(type);
  std::vector<uint8_t> out(values.size() * width);
  for (size_t i = 0; i < values.size(); ++i) {
    if (width == 4) {
      std::memcpy(&out[4 * i], &values[i], 4);
      continue;
    }
    uint16_t h = type == ElementType::F16 ? floatToHalfBits(values[i])
                                          : floatToBf16Bits(values[i]);
    std::memcpy(&out[2 * i], &h, 2);
  }
  return out;
}

void applyEpilogue(std::vector<float> &c, ArrayRef<float> bias, int64_t m,
                   int64_t n, Epilogue epilogue) {
  bool addBias = epilogue == Epilogue::Bias || epilogue == Epilogue::BiasRelu;
  bool relu = epilogue == Epilogue::BiasRelu || epilogue == Epilogue::Relu;
  if (!addBias && !relu)
    return;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float &x = c[size_t(i * n + j)];
      if (addBias)
        x += bias[size_t(j)];
      if (relu)
        x = std::max(x, 0.0f);
    }
}

std::vector<float> hostMatmul(ArrayRef<float> a, ArrayRef<float> b, int64_t m,
                              int64_t n, int64_t k, bool bTransposed) {
  std::vector<float> c(size_t(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc +=
            double(a[size_t(i * k + p)]) *
            double(bTransposed ? b[size_t(j * k + p)] : b[size_t(p * n + j)]);
      c[size_t(i * n + j)] = float(acc);
    }
  return c;
}

//===----------------------------------------------------------------------===//
// Result check
//===----------------------------------------------------------------------===//

double defaultTolerance(ElementType type) {
  switch (type) {
  case ElementType::F16:
  case ElementType::TF32:
    return std::ldexp(1.0, -11);
  case ElementType::BF16:
    return std::ldexp(1.0, -8);
  case ElementType::F32:
    return std::ldexp(1.0, -17);
  }
  llvm_unreachable("element type");
}

double maxAbs(ArrayRef<float> values) {
  double m = 0;
  for (float v : values)
    m = std::max(m, double(std::fabs(v)));
  return m;
}

CheckResult checkResult(ArrayRef<float> got, ArrayRef<float> expected,
                        int64_t m, int64_t n, int64_t k, double maxAbsA,
                        double maxAbsB, double tolerance) {
  CheckResult r;
  double scale = std::sqrt(double(k)) * maxAbsA * maxAbsB;
  // All-zero inputs: any difference is an error.
  r.bound = tolerance * scale;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      size_t idx = size_t(i * n + j);
      double err = std::fabs(double(got[idx]) - double(expected[idx]));
      bool bad = !(err <= r.bound); // NaN is bad
      if (!std::isnan(err))
        r.maxAbsError = std::max(r.maxAbsError, err);
      else
        r.maxAbsError = std::numeric_limits<double>::infinity();
      if (bad) {
        if (r.mismatches == 0) {
          r.firstRow = i;
          r.firstCol = j;
          r.firstGot = got[idx];
          r.firstExpected = expected[idx];
        }
        ++r.mismatches;
      }
    }
  r.maxNormalizedError = scale > 0 ? r.maxAbsError / scale : r.maxAbsError;
  r.passed = r.mismatches == 0;
  return r;
}

void CheckResult::print(raw_ostream &os) const {
  os << (passed ? "PASS" : "FAIL") << ": max |C - cuBLAS| "
     << format("%.3e", maxAbsError) << ", bound " << format("%.3e", bound)
     << " (normalized " << format("%.3e", maxNormalizedError) << "), "
     << mismatches << " elements above the bound";
  if (mismatches)
    os << "; first at [" << firstRow << ", " << firstCol << "]: got "
       << format("%g", firstGot) << ", expected "
       << format("%g", firstExpected);
  os << "\n";
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

TimingStats summarize(ArrayRef<double> ms, int64_t m, int64_t n, int64_t k) {
  TimingStats s;
  s.count = unsigned(ms.size());
  if (ms.empty())
    return s;
  std::vector<double> sorted(ms.begin(), ms.end());
  llvm::sort(sorted);
  s.minMs = sorted.front();
  s.maxMs = sorted.back();
  size_t mid = sorted.size() / 2;
  s.medianMs =
      sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
  double sum = 0;
  for (double v : sorted)
    sum += v;
  s.meanMs = sum / double(sorted.size());
  double flops = 2.0 * double(m) * double(n) * double(k);
  auto tflops = [&](double t) { return t > 0 ? flops / (t * 1e-3) / 1e12 : 0; };
  s.tflopsAtMedian = tflops(s.medianMs);
  s.tflopsAtMin = tflops(s.minMs);
  return s;
}

void TimingStats::print(raw_ostream &os) const {
  os << format("median %.4f ms (%.2f TFLOP/s), min %.4f ms (%.2f TFLOP/s), "
               "mean %.4f ms, max %.4f ms, %u launches",
               medianMs, tflopsAtMedian, minMs, tflopsAtMin, meanMs, maxMs,
               count);
}

//===----------------------------------------------------------------------===//
// Report
//===----------------------------------------------------------------------===//

static json::Value dimJson(const Dim3 &d) { return json::Array{d.x, d.y, d.z}; }

static json::Value timingJson(const TimingStats &s) {
  return json::Object{
      {"launches", s.count},        {"median_ms", s.medianMs},
      {"min_ms", s.minMs},          {"mean_ms", s.meanMs},
      {"max_ms", s.maxMs},          {"tflops_median", s.tflopsAtMedian},
      {"tflops_min", s.tflopsAtMin}};
}

json::Value toJson(const Report &r) {
  const Options &o = r.options;
  json::Array params;
  for (const PackedParam &p : r.params) {
    json::Object obj{{"label", p.label}, {"bytes", p.bytes}};
    if (p.isPointer)
      obj["buffer"] = toString(p.buffer);
    else if (p.isFloat)
      obj["value"] = double(bitsFloat(uint32_t(p.immediate)));
    else
      obj["value"] = p.bytes == 4 ? int64_t(int32_t(uint32_t(p.immediate)))
                                  : int64_t(p.immediate);
    params.push_back(std::move(obj));
  }
  json::Array maps;
  for (const TensorMapParams &t : r.tensorMaps)
    maps.push_back(json::Object{
        {"arg", toString(t.map)},
        {"operand", toString(t.operand)},
        {"param", t.paramIndex},
        {"data_type", dataTypeName(t.dataType)},
        {"data_type_enum", t.dataType},
        {"rank", t.rank},
        {"global_dim", json::Array{t.globalDim[0], t.globalDim[1]}},
        {"global_strides", json::Array{t.globalStrides[0]}},
        {"box_dim", json::Array{t.boxDim[0], t.boxDim[1]}},
        {"element_strides",
         json::Array{t.elementStrides[0], t.elementStrides[1]}},
        {"interleave_enum", t.interleave},
        {"swizzle_bytes", t.swizzleBytes},
        {"swizzle_enum", t.swizzle},
        {"l2_promotion_bytes", t.l2PromotionBytes},
        {"l2_promotion_enum", t.l2Promotion},
        {"oob_fill_enum", t.oobFill}});
  json::Object out{
      {"ptx", o.ptxPath},
      {"kernel", r.kernel},
      {"m", o.m},
      {"n", o.n},
      {"k", o.k},
      {"type", toString(o.type)},
      {"b_layout", o.bTransposed ? "nk" : "kn"},
      {"epilogue", toString(o.epilogue)},
      {"args", describeArgs(o.args)},
      {"abi", o.abi == MemrefAbi::Descriptor ? "descriptor" : "bare"},
      {"grid", dimJson(r.grid)},
      {"block", dimJson(r.block)},
      {"dynamic_smem_bytes", o.dynamicSmemBytes},
      {"params", std::move(params)},
      {"tensor_maps", std::move(maps)},
      {"dry_run", o.dryRun},
      {"flush_l2", o.flushL2},
  };
  if (!r.device.empty())
    out["device"] = r.device;
  if (!r.ptxasArch.empty()) {
    json::Object p{{"arch", r.ptxasArch}};
    if (r.ptxasRegisters)
      p["registers"] = *r.ptxasRegisters;
    if (r.ptxasSmemBytes)
      p["smem_bytes"] = *r.ptxasSmemBytes;
    if (r.ptxasSpillBytes)
      p["spill_bytes"] = *r.ptxasSpillBytes;
    out["ptxas"] = std::move(p);
  }
  if (r.check) {
    const CheckResult &c = *r.check;
    out["check"] = json::Object{
        {"passed", c.passed},
        {"tolerance", o.tolerance.value_or(defaultTolerance(o.type))},
        {"bound", c.bound},
        {"max_abs_error", std::isinf(c.maxAbsError) ? -1.0 : c.maxAbsError},
        {"max_normalized_error",
         std::isinf(c.maxNormalizedError) ? -1.0 : c.maxNormalizedError},
        {"mismatches", int64_t(c.mismatches)}};
  }
  if (r.kernelTime)
    out["kernel_time"] = timingJson(*r.kernelTime);
  if (r.cublasTime)
    out["cublas_time"] = timingJson(*r.cublasTime);
  if (r.kernelTime && r.cublasTime && r.kernelTime->medianMs > 0)
    out["speed_vs_cublas_median"] =
        r.cublasTime->medianMs / r.kernelTime->medianMs;
  return out;
}

Expected<PtxasFigures> parsePtxasOutput(StringRef output, StringRef kernel) {
  // ptxas -v prints, per function:
  //   Compiling entry function 'NAME' for 'sm_80'
  //   Function properties for NAME
  //       S bytes stack frame, T bytes spill stores, L bytes spill loads
  //   Used R registers, used B barriers, X bytes smem, Y bytes cmem[0]
  size_t start =
      output.find(("Compiling entry function '" + kernel + "'").str());
  if (start == StringRef::npos)
    return usageError("ptxas output has no entry function '" + kernel + "'");
  StringRef rest = output.substr(start);
  size_t next = rest.find("Compiling entry function", 10);
  if (next != StringRef::npos)
    rest = rest.take_front(next);
  PtxasFigures f;
  auto numberBefore = [&](StringRef text, StringRef suffix,
                          uint64_t &value) -> bool {
    size_t pos = text.find(suffix);
    if (pos == StringRef::npos)
      return false;
    StringRef head = text.take_front(pos).rtrim();
    size_t digits = head.find_last_not_of("0123456789");
    StringRef number = head.substr(digits == StringRef::npos ? 0 : digits + 1);
    return !number.getAsInteger(10, value);
  };
  uint64_t regs = 0, stores = 0, loads = 0, smem = 0;
  if (!numberBefore(rest, " registers", regs))
    return usageError("ptxas output for '" + kernel +
                      "' has no register count");
  numberBefore(rest, " bytes spill stores", stores);
  numberBefore(rest, " bytes spill loads", loads);
  numberBefore(rest, " bytes smem", smem);
  f.registers = unsigned(regs);
  f.smemBytes = smem;
  f.spillBytes = stores + loads;
  return f;
}

} // namespace gpurunner
} // namespace hwsched
