//===- op_fuzzer.cpp - In-process fuzz target for the hwsched ops ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// libFuzzer entry point for every hwsched transform op. The input bytes
// choose (FuzzInput.h: each decision reads bytes from the front):
//   - the op (one of kOps) and the payload ops its handle holds: one
//     candidate of a category (scf.for, Linalg ops, functions, gpu.launch,
//     func.call for epilogue_into_stores),
//     all of them, the module, an empty handle, sometimes a typed handle;
//   - the spec: a shipped name, a bad spec of test/HwSpec/Inputs by path,
//     junk names and paths, an attribute of the wrong kind, or none (then
//     the payload's recorded target or the driver default, also drawn, is
//     used), plus 0-3 overrides of every attribute kind and op options
//     (metric, key, num_stages, explain);
//   - optionally a target recorded on the payload first (attach_target_spec,
//     itself checked like the op);
//   - the payload: generated from the remaining bytes (PayloadGenerator.h)
//     or, in text mode, the remaining bytes are MLIR text (the seed corpus
//     holds the payloads of test/ and examples/, which libFuzzer mutates).
// It builds the transform script as text, parses both, and applies the
// script in-process with the transform interpreter
// (transform::applyTransformNamedSequence, expensive handle checks on).
//
// Invariants; a violation prints the case and aborts (libFuzzer saves it):
//   - no crash, no sanitizer report (ASan + UBSan in the libFuzzer build);
//   - a script the parser or an op verifier rejects has an error diagnostic;
//   - success: no error diagnostic, the payload verifies, and its printed
//     form parses and verifies again;
//   - failure: an error diagnostic, and the payload printed (generic form)
//     byte-for-byte as before the application;
//   - determinism (when drawn): applying the same script to a clone of the
//     payload gives the same outcome, diagnostics and printed payload.
// Payload text that does not parse or verify is skipped.
//
// HWSCHED_FUZZ_VERBOSE=1 prints each case (script, payload, diagnostics):
//   build/bin/hwsched-fuzz-ops-replay fuzz/regressions/ops-libfuzzer/<file>
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "PayloadGenerator.h"

#include "hwsched/HwSpec/TargetResolution.h"
#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;
using namespace hwsched::fuzz;

#ifndef HWSCHED_SOURCE_DIR
#define HWSCHED_SOURCE_DIR "."
#endif

namespace {

/// Bytes of decisions before the payload (a case reads at most about 35).
constexpr size_t kHeaderBytes = 48;

/// What an op's application returns, for the script that applies it.
enum class Results {
  None,       // modifies the payload, no result
  Handle,     // one handle
  Handles2,   // two handles
  Param,      // one param, emitted as a remark
  TileConfig, // select_tile_config's five or six params
  SplitK,     // split_k: a factor param in, three handles out
};

/// One op the fuzzer applies: its short name, its full name, what it
/// returns and the category of payload op it works on. One table, so that
/// adding an op here is one line (fuzz/op_fuzz.py's TARGETS and
/// HOME_CATEGORY and utils/hwsched_tools.OPS are the Python side).
struct OpForm {
  const char *name;
  const char *fullName;
  Results results;
  const char *home;
};

const OpForm kOps[] = {
    {"filter_fusable_consumers",
     "transform.cost_model.filter_fusable_consumers", Results::Handle,
     "linalg"},
    {"estimate", "transform.cost_model.estimate", Results::Param, "linalg"},
    {"select_tile_config", "transform.cost_model.select_tile_config",
     Results::TileConfig, "linalg"},
    {"schedule_stages", "transform.pipeline.schedule_stages", Results::Handle,
     "loops"},
    {"merge_allocations", "transform.smem.merge_allocations", Results::Handle,
     "funcs"},
    {"eliminate_redundant_copies", "transform.smem.eliminate_redundant_copies",
     Results::None, "funcs"},
    {"attach_target_spec", "transform.hwsched.attach_target_spec",
     Results::None, "funcs"},
    {"query_spec", "transform.hwsched.query_spec", Results::Param, "funcs"},
    {"epilogue_in_place", "transform.fusion.epilogue_in_place", Results::Handle,
     "linalg"},
    {"split_k", "transform.hwsched.split_k", Results::SplitK, "linalg"},
    {"chunk_dynamic_loops", "transform.hwsched.chunk_dynamic_loops",
     Results::Handle, "linalg"},
    {"rewrite_matmul_as_wgmma", "transform.hwsched.rewrite_matmul_as_wgmma",
     Results::Handle, "linalg"},
    {"match_wgmma_matmuls", "transform.hwsched.match_wgmma_matmuls",
     Results::Handles2, "linalg"},
    {"match_mma_sync_matmuls", "transform.hwsched.match_mma_sync_matmuls",
     Results::Handles2, "linalg"},
    {"outline_kernel_function", "transform.hwsched.outline_kernel_function",
     Results::Handles2, "linalg"},
    {"split_accumulation", "transform.hwsched.split_accumulation",
     Results::Handle, "linalg"},
    {"avoid_bank_conflicts", "transform.smem.avoid_bank_conflicts",
     Results::None, "funcs"},
    {"epilogue_into_stores", "transform.fusion.epilogue_into_stores",
     Results::None, "linalg"},
};

/// outline_kernel_function's function names, valid and invalid.
const char *const kFuncNames[] = {
    "kernel", "hwsched_tensorcore_kernel", "", "main", "f", "a b", "@x", "0"};

/// chunk_dynamic_loops' chunk sizes, valid and invalid.
const char *const kChunks[] = {"1", "3", "7", "256", "0", "-2"};
const char *const kChunkNames[] = {"parallel_chunk", "reduction_chunk",
                                   "window_chunk"};

/// rewrite_matmul_as_wgmma's tile inputs (values from drawValue).
const char *const kWgmmaInputs[] = {"block_m",      "block_n",
                                    "num_stages",   "warpgroups",
                                    "raster_group", "producer_warp"};

/// Their values: mostly of the right kind, so that the op runs.
const char *const kWgmmaValues[] = {"64", "128", "192", "256", "1", "2",
                                    "3",  "4",   "5",   "8",   "0", "-1"};

/// split_k's factor operand, valid and invalid.
const char *const kSplitFactors[] = {"0", "1", "2",  "3",
                                     "4", "8", "-1", "1024"};

const char *const kCategories[] = {"loops",    "linalg", "funcs",
                                   "launches", "root",   "empty"};

const char *const kKeys[] = {"onchip.capacity_bytes",
                             "onchip.alignment_bytes",
                             "onchip.memory_space",
                             "gpu.sm_count",
                             "gpu.max_registers_per_thread",
                             "gpu.warp_size",
                             "gpu.registers_per_sm",
                             "npu.ping_pong_factor",
                             "npu.cube_tile",
                             "cpu.vector_width_bits",
                             "pipeline.max_stages",
                             "pipeline.sync",
                             "pipeline.units.vector.latency_cycles",
                             "pipeline.units.cube.count",
                             "pipeline.units",
                             "cost_weights.register_pressure",
                             "offchip.bandwidth_gb_per_s",
                             "gpu",
                             "gpu.",
                             ".",
                             "onchip..capacity_bytes",
                             "gpu.no_such_figure",
                             "kind",
                             "name",
                             "sources.gpu"};

const char *const kOverrideNames[] = {"reg_limit",      "smem_limit_bytes",
                                      "ub_limit_bytes", "l2_limit_bytes",
                                      "max_stages",     "reg_limt",
                                      "target2",        "explain2",
                                      "metric",         "key"};

const char *const kMetrics[] = {"registers_per_thread",
                                "onchip_bytes",
                                "offchip_bytes",
                                "flops",
                                "estimated_time_ns",
                                "",
                                "FLOPS",
                                "registers_per_thread ",
                                "no_such_metric"};

const char *const kIntegers[] = {"0",
                                 "1",
                                 "-1",
                                 "2",
                                 "3",
                                 "7",
                                 "64",
                                 "1024",
                                 "49152",
                                 "65536",
                                 "2147483647",
                                 "9223372036854775807",
                                 "-9223372036854775808",
                                 "4294967296"};

// The first three hold every entry of kIntegers, the others the first seven.
const char *const kIntegerTypes[] = {"",        " : i64",   " : i128", " : i32",
                                     " : ui64", " : index", " : i8"};

const char *const kOtherValues[] = {"0.5 : f64",
                                    "1.0e+300 : f64",
                                    "-2.5 : f32",
                                    "0.0 : f32",
                                    "0x7FF0000000000000 : f64",
                                    "0x7FF8000000000000 : f64",
                                    "0xFFF0000000000000 : f64",
                                    "18446744073709551615 : i128",
                                    "18446744073709551617 : ui64",
                                    "\"#gpu.address_space<workgroup>\"",
                                    "\"ub\"",
                                    "\"3\"",
                                    "\"\"",
                                    "\"#gpu.address_space<\"",
                                    "\"fractal_nz\"",
                                    "\"#dlti.map<>\"",
                                    "true",
                                    "false",
                                    "unit",
                                    "array<i64>",
                                    "array<i64: 1, 2>",
                                    "array<i64: 16, 16, 16>",
                                    "[1, 2]",
                                    "{a = 1}",
                                    "f32",
                                    "#gpu.address_space<workgroup>",
                                    "dense<1> : tensor<2xi32>",
                                    "affine_map<(d0) -> (d0)>"};

const char *const kNumStages[] = {
    "1",       "2",    "3", "4", "8", "0", "-1", "1000", "9223372036854775807",
    "2 : i32", "\"3\""};

/// Files under `dir` ending in `.json`, sorted (deterministic choices).
std::vector<std::string> listSpecs(llvm::StringRef dir, bool pathsOnly) {
  std::vector<std::string> out;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef path = it->path();
    if (!path.ends_with(".json") || path.ends_with("schema.json"))
      continue;
    out.push_back(pathsOnly ? path.str() : llvm::sys::path::stem(path).str());
  }
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::string> &shippedSpecs() {
  static const std::vector<std::string> specs =
      listSpecs(HWSCHED_SOURCE_DIR "/hw-specs", false);
  return specs;
}

const std::vector<std::string> &badSpecs() {
  static const std::vector<std::string> specs =
      listSpecs(HWSCHED_SOURCE_DIR "/test/HwSpec/Inputs", true);
  return specs;
}

std::string quote(llvm::StringRef s) { return "\"" + s.str() + "\""; }

/// A `target` attribute value, or "" for none.
std::string drawTarget(ByteReader &in) {
  const std::vector<std::string> &shipped = shippedSpecs();
  const std::vector<std::string> &bad = badSpecs();
  unsigned kind = in.pick(10);
  if (kind < 5 && !shipped.empty())
    return quote(shipped[in.pick(shipped.size())]);
  if (kind == 5 && !bad.empty())
    return quote(bad[in.pick(bad.size())]);
  if (kind == 6) {
    const std::string junk[] = {
        "\"\"",
        "\"nvidia-a101\"",
        "\"/\"",
        "\"/dev/null\"",
        "\".json\"",
        quote(HWSCHED_SOURCE_DIR "/hw-specs/schema.json"),
        quote(HWSCHED_SOURCE_DIR "/hw-specs"),
        "\"../hw-specs/nvidia-a100.json\""};
    return junk[in.pick(std::size(junk))];
  }
  if (kind == 7) {
    const char *const wrongKinds[] = {"3", "unit", "[]"};
    return wrongKinds[in.pick(std::size(wrongKinds))];
  }
  return "";
}

std::string drawValue(ByteReader &in) {
  if (in.chance(128)) {
    // Small integers in every type; large ones only where they fit (the
    // parser rejects the others, which would waste the execution).
    unsigned i = in.pick(std::size(kIntegers));
    unsigned types = i < 7 ? std::size(kIntegerTypes) : 3;
    return std::string(kIntegers[i]) + kIntegerTypes[in.pick(types)];
  }
  return kOtherValues[in.pick(std::size(kOtherValues))];
}

/// One fuzz case, decoded from the input's front bytes.
struct Case {
  unsigned op = 0;
  std::string category;
  unsigned which = 0; // candidate index; == count means the whole handle
  bool typed = false;
  std::string attrs;
  std::string preAttach; // target recorded on the payload first, or ""
  std::string driverDefault;
  bool checkDeterminism = false;
  /// select_tile_config: also ask for the split_k result.
  bool sixResults = false;
  const char *splitFactor = "2";
  bool textPayload = false;

  explicit Case(ByteReader &in) {
    // First, so a seed can choose the mode and the op with its first bytes.
    textPayload = in.chance(40);
    op = in.pick(std::size(kOps));
    llvm::StringRef name = kOps[op].name;
    unsigned cat = in.pick(10);
    category =
        cat < 6 ? kOps[op].home : kCategories[in.pick(std::size(kCategories))];
    // epilogue_into_stores also takes the call of a function holding the
    // epilogue: its home is both (a draw of its own, so that the other ops'
    // seeds keep their meaning).
    if (name == "epilogue_into_stores" && category == "linalg" && in.chance(80))
      category = "calls";
    which = in.byte();
    typed = name == "schedule_stages" && category == "loops" && in.chance(180);

    std::vector<std::pair<std::string, std::string>> list;
    if (std::string t = drawTarget(in); !t.empty())
      list.push_back({"target", t});
    for (unsigned i = 0, e = in.pick(8) / 2; i < e; ++i) {
      std::string key =
          in.chance(100) ? quote(kKeys[in.pick(std::size(kKeys))])
                         : kOverrideNames[in.pick(std::size(kOverrideNames))];
      if ((key == "metric" && name == "estimate") ||
          (key == "key" && name == "query_spec"))
        continue;
      list.push_back({key, drawValue(in)});
    }
    if (name == "estimate")
      list.push_back({"metric", quote(kMetrics[in.pick(std::size(kMetrics))])});
    if (name == "query_spec")
      list.push_back({"key", quote(kKeys[in.pick(std::size(kKeys))])});
    if (name == "chunk_dynamic_loops")
      for (unsigned i = 0, e = in.pick(4); i < e; ++i)
        list.push_back({kChunkNames[in.pick(std::size(kChunkNames))],
                        kChunks[in.pick(std::size(kChunks))]});
    if (name == "rewrite_matmul_as_wgmma")
      for (unsigned i = 0, e = in.pick(4); i < e; ++i)
        list.push_back({kWgmmaInputs[in.pick(std::size(kWgmmaInputs))],
                        in.chance(200)
                            ? kWgmmaValues[in.pick(std::size(kWgmmaValues))]
                            : drawValue(in)});
    // outline_kernel_function needs its func_name: mostly a usable one,
    // some empty, clashing with the payload's own symbols, or not a name.
    if (name == "outline_kernel_function" && in.chance(230))
      list.push_back(
          {"func_name", quote(kFuncNames[in.pick(std::size(kFuncNames))])});
    if (name == "schedule_stages" && in.chance(150))
      list.push_back(
          {"num_stages", kNumStages[in.pick(std::size(kNumStages))]});
    bool explain = in.chance(180);
    // The parser rejects duplicate attribute names: keep the first.
    std::vector<std::string> seen;
    for (auto &[key, value] : list) {
      if (llvm::is_contained(seen, key))
        continue;
      seen.push_back(key);
      attrs += (attrs.empty() ? "" : ", ") + key + " = " + value;
    }
    if (explain)
      attrs += attrs.empty() ? "explain" : ", explain";
    attrs = "{" + attrs + "}";

    if (in.chance(50)) {
      preAttach = drawTarget(in);
      if (preAttach.empty())
        preAttach = quote(shippedSpecs().empty() ? "nvidia-a100"
                                                 : shippedSpecs().front());
    }
    if (in.chance(40) && !shippedSpecs().empty())
      driverDefault = shippedSpecs()[in.pick(shippedSpecs().size())];
    checkDeterminism = in.chance(64);
    sixResults = name == "select_tile_config" && in.chance(128);
    if (name == "split_k")
      splitFactor = kSplitFactors[in.pick(std::size(kSplitFactors))];
  }
};

/// The candidate payload ops of `category` under `root`, in the order
/// transform.structured.match returns them.
unsigned countCandidates(Operation *root, llvm::StringRef category) {
  unsigned n = 0;
  root->walk([&](Operation *op) {
    if (op == root)
      return;
    llvm::StringRef name = op->getName().getStringRef();
    if ((category == "loops" && name == "scf.for") ||
        (category == "funcs" && name == "func.func") ||
        (category == "launches" && name == "gpu.launch") ||
        (category == "calls" && name == "func.call") ||
        (category == "linalg" && isa<linalg::LinalgOp>(op)))
      ++n;
  });
  return n;
}

std::string matcher(llvm::StringRef category) {
  if (category == "loops")
    return "ops{[\"scf.for\"]}";
  if (category == "linalg")
    return "interface{LinalgOp}";
  if (category == "funcs")
    return "ops{[\"func.func\"]}";
  if (category == "launches")
    return "ops{[\"gpu.launch\"]}";
  if (category == "calls")
    return "ops{[\"func.call\"]}";
  return "ops{[\"hwsched.no_such_op\"]}";
}

/// The transform script applying the case's op to its handle.
std::string buildScript(const Case &c, unsigned count) {
  std::string ty = c.typed ? "!transform.op<\"scf.for\">" : "!transform.any_op";
  std::string any = "!transform.any_op", p = "!transform.any_param";
  std::string s = "module attributes {transform.with_named_sequence} {\n"
                  "  transform.named_sequence @__fuzz_main(%root: " +
                  any + ") {\n";
  std::string h = "%root", hty = any;
  if (c.category != "root") {
    s += "    %all = transform.structured.match " + matcher(c.category) +
         " in %root : (" + any + ") -> " + ty + "\n";
    h = "%all";
    hty = ty;
    // One candidate by exact split (not split_handle's overflow_result:
    // MLIR 22 aborts when the handle holds fewer payloads than results - 1).
    if (count > 1 && c.which % (count + 1) < count) {
      std::string tys;
      for (unsigned i = 0; i < count; ++i)
        tys += (i ? ", " : "") + ty;
      s += "    %h:" + std::to_string(count) +
           " = transform.split_handle %all : (" + ty + ") -> (" + tys + ")\n";
      h = "%h#" + std::to_string(c.which % (count + 1));
    }
  }
  const OpForm &form = kOps[c.op];
  std::string call = std::string(form.fullName) + " " + h;
  const std::string &a = c.attrs;
  switch (form.results) {
  case Results::None:
    s += "    " + call + " " + a + " : " + hty + "\n";
    break;
  case Results::Handle:
    s += "    %r = " + call + " " + a + " : (" + hty + ") -> " + any + "\n";
    break;
  case Results::Handles2:
    s += "    %r:2 = " + call + " " + a + " : (" + hty + ") -> (" + any + ", " +
         any + ")\n";
    break;
  case Results::Param:
    s += "    %r = " + call + " " + a + " : (" + hty + ") -> " + p +
         "\n    transform.debug.emit_param_as_remark %r : " + p + "\n";
    break;
  case Results::TileConfig: {
    unsigned n = c.sixResults ? 6 : 5;
    std::string tys;
    for (unsigned i = 0; i < n; ++i)
      tys += (i ? ", " : "") + p;
    s += "    %t:" + std::to_string(n) + " = " + call + " " + a + " : (" + hty +
         ") -> (" + tys + ")\n    transform.debug.emit_param_as_remark %t#" +
         std::to_string(n - 1) + " : " + p + "\n";
    break;
  }
  case Results::SplitK:
    s += std::string("    %sk = transform.param.constant ") + c.splitFactor +
         " : i64 -> !transform.param<i64>\n    %r:3 = " + call + " by %sk " +
         a + " : (" + hty + ", !transform.param<i64>) -> (" + any + ", " + any +
         ", " + any + ")\n";
    break;
  }
  // Walk the (possibly rewritten) payload again: a dangling operation in a
  // handle or in the IR shows up here under ASan.
  s += "    %again = transform.structured.match ops{[\"func.func\"]} in %root "
       ": (" +
       any + ") -> " + any + "\n    transform.yield\n  }\n}\n";
  return s;
}

/// Outcome counts, printed at exit when HWSCHED_FUZZ_STATS is set.
struct Stats {
  unsigned inputs = 0, invalidPayloads = 0, rejected = 0, successes = 0,
           cleanFailures = 0, determinismChecks = 0;
  std::array<unsigned, std::size(kOps)> perOp{}, perOpSuccess{};
  ~Stats() {
    if (!std::getenv("HWSCHED_FUZZ_STATS"))
      return;
    llvm::errs() << "op fuzzer: " << inputs << " inputs, " << invalidPayloads
                 << " payloads skipped (do not parse or verify), " << rejected
                 << " scripts rejected, " << successes << " successes, "
                 << cleanFailures << " clean failures, " << determinismChecks
                 << " determinism re-runs\n";
    for (size_t i = 0; i < std::size(kOps); ++i)
      llvm::errs() << "  " << kOps[i].name << ": " << perOp[i] << " applied, "
                   << perOpSuccess[i] << " succeeded\n";
  }
};

Stats &stats() {
  static Stats s;
  return s;
}

bool verbose() {
  static const bool v = std::getenv("HWSCHED_FUZZ_VERBOSE") != nullptr;
  return v;
}

/// Diagnostics of one step, kept off stderr unless verbose.
struct Diagnostics {
  std::vector<std::string> messages;
  unsigned errors = 0;
  void clear() {
    messages.clear();
    errors = 0;
  }
};

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().printGenericOpForm().assumeVerified(false));
  return text;
}

[[noreturn]] void violation(llvm::StringRef what, llvm::StringRef script,
                            llvm::StringRef payload, const Diagnostics &diags) {
  llvm::errs() << "hwsched op fuzzer: INVARIANT VIOLATED: " << what
               << "\n--- script ---\n"
               << script << "--- payload before ---\n"
               << payload << "\n--- diagnostics ---\n";
  for (const std::string &m : diags.messages)
    llvm::errs() << m << "\n";
  llvm::errs().flush();
  abort();
}

/// The printed outcome of one application, for the determinism check.
struct Outcome {
  bool succeeded = false;
  bool rejected = false;
  std::vector<std::string> messages;
  std::string payload;
};

/// Applies `scriptText` to `payload` and checks the invariants; returns the
/// outcome.
Outcome applyAndCheck(MLIRContext &ctx, Diagnostics &diags,
                      llvm::StringRef scriptText, Operation *payload) {
  Outcome outcome;
  diags.clear();
  OwningOpRef<ModuleOp> script =
      parseSourceString<ModuleOp>(scriptText, &ctx, "fuzz-script.mlir");
  std::string before = print(payload);
  if (!script) {
    // Attributes of the wrong kind are refused by the op verifiers: that
    // must come with an error, and the payload is never touched.
    if (diags.errors == 0)
      violation("script rejected without an error diagnostic", scriptText,
                before, diags);
    outcome.rejected = true;
    outcome.messages = diags.messages;
    outcome.payload = before;
    return outcome;
  }
  Operation *entry = script->lookupSymbol("__fuzz_main");
  if (!entry)
    violation("no entry point in the generated script", scriptText, before,
              diags);
  transform::TransformOptions options;
  options.enableExpensiveChecks(true);
  LogicalResult result =
      transform::applyTransformNamedSequence(payload, entry, *script, options);
  std::string after = print(payload);
  if (succeeded(result)) {
    if (diags.errors)
      violation("succeeded but reported an error", scriptText, before, diags);
    if (failed(verify(payload)))
      violation("payload fails the verifier after a successful application",
                scriptText, before, diags);
    // What a user's next tool reads: the printed payload parses and
    // verifies again.
    Diagnostics saved = diags;
    OwningOpRef<Operation *> reparsed =
        parseSourceString(after, &ctx, "fuzz-reparse.mlir");
    if (!reparsed)
      violation("printed payload does not parse after a successful "
                "application",
                scriptText, before, diags);
    diags = saved;
  } else {
    if (diags.errors == 0)
      violation("failed without an error diagnostic", scriptText, before,
                diags);
    if (after != before)
      violation("failure changed the payload", scriptText, before, diags);
  }
  outcome.succeeded = succeeded(result);
  outcome.messages = diags.messages;
  outcome.payload = after;
  return outcome;
}

DialectRegistry &registry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerAllDialects(*r);
    registerAllExtensions(*r);
    hwsched::registerTransformExtension(*r);
    return r;
  }();
  return *registry;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fixed-size header of decisions, then the payload's bytes: a seed is
  // any header followed by MLIR text (or generator bytes).
  size_t headerSize = std::min(size, kHeaderBytes);
  ByteReader header(data, headerSize);
  Case c(header);
  ByteReader body(data + headerSize, size - headerSize);
  std::string payloadText =
      c.textPayload ? body.rest().str() : generatePayload(body);

  ++stats().inputs;
  MLIRContext ctx(registry(), MLIRContext::Threading::DISABLED);
  Diagnostics diags;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++diags.errors;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << diag.getLocation() << ": " << diag;
    diags.messages.push_back(text);
    if (verbose())
      llvm::errs() << text << "\n";
    return success();
  });

  OwningOpRef<ModuleOp> payload =
      parseSourceString<ModuleOp>(payloadText, &ctx, "fuzz-payload.mlir");
  if (!payload || failed(verify(*payload))) {
    if (!c.textPayload)
      violation("the payload generator produced invalid IR", "", payloadText,
                diags);
    ++stats().invalidPayloads;
    return 0;
  }

  hwsched::setDefaultTarget(c.driverDefault);
  if (!c.preAttach.empty()) {
    std::string record =
        "module attributes {transform.with_named_sequence} {\n"
        "  transform.named_sequence @__fuzz_main(%root: !transform.any_op) {\n"
        "    transform.hwsched.attach_target_spec %root {target = " +
        c.preAttach + "} : !transform.any_op\n    transform.yield\n  }\n}\n";
    applyAndCheck(ctx, diags, record, *payload);
  }

  unsigned count = c.category == "root" || c.category == "empty"
                       ? 0
                       : countCandidates(*payload, c.category);
  std::string script = buildScript(c, count);
  if (verbose())
    llvm::errs() << "--- script ---\n"
                 << script << "--- payload ---\n"
                 << print(*payload) << "\n";

  OwningOpRef<ModuleOp> copy;
  if (c.checkDeterminism)
    copy = cast<ModuleOp>((*payload)->clone());
  Outcome first = applyAndCheck(ctx, diags, script, *payload);
  if (first.rejected) {
    ++stats().rejected;
  } else {
    ++stats().perOp[c.op];
    ++(first.succeeded ? stats().successes : stats().cleanFailures);
    stats().perOpSuccess[c.op] += first.succeeded;
  }
  if (verbose())
    llvm::errs() << "--- outcome: "
                 << (first.rejected    ? "script rejected"
                     : first.succeeded ? "success"
                                       : "clean failure")
                 << " ---\n";
  if (copy) {
    ++stats().determinismChecks;
    Outcome second = applyAndCheck(ctx, diags, script, *copy);
    if (second.succeeded != first.succeeded ||
        second.messages != first.messages || second.payload != first.payload)
      violation("a second application to a copy of the payload differs", script,
                payloadText, diags);
  }
  hwsched::setDefaultTarget("");
  return 0;
}
