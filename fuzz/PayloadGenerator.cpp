//===- PayloadGenerator.cpp - Valid payload programs from bytes -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Emits MLIR text, tracking every value's type so each statement only uses
// operands it may: shapes must be compatible (equal or dynamic), values
// defined in a region stay in that region, only the allocating scope frees a
// buffer (and its views die with it). SSA names are unique in the whole
// module, as nested regions see the names of their parents.
//
//===----------------------------------------------------------------------===//

#include "PayloadGenerator.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace hwsched::fuzz;

namespace {

constexpr int64_t kDynamic = -1;

/// An element type and the arithmetic that goes with it.
struct ElementType {
  const char *name;
  const char *zero;
  const char *other;
  const char *add;
  const char *mul;
  const char *max;
};

const ElementType kElementTypes[] = {
    {"f32", "0.0", "0.5", "arith.addf", "arith.mulf", "arith.maximumf"},
    {"f32", "0.0", "2.0", "arith.subf", "arith.mulf", "arith.minimumf"},
    {"f16", "0.0", "0.5", "arith.addf", "arith.mulf", "arith.maximumf"},
    {"i32", "0", "3", "arith.addi", "arith.muli", "arith.maxsi"},
    {"i8", "0", "1", "arith.addi", "arith.muli", "arith.minui"},
};

/// Memory spaces of allocations; the default space comes up most often.
const char *const kSpaces[] = {"",
                               "",
                               "#gpu.address_space<workgroup>",
                               "#gpu.address_space<workgroup>",
                               "\"ub\"",
                               "3",
                               "#gpu.address_space<private>",
                               "1"};

const int64_t kDims[] = {4, 8, 16, 32, 64, 2, 1, 3, 128, 1024};

/// A memref or tensor value the next statements may use.
struct Value {
  std::string name;
  std::vector<int64_t> shape;
  std::string space;  // memory-space attribute text ("" = default)
  std::string layout; // layout attribute text ("" = identity)
  std::string base;   // the allocation it is a view of ("" = none)
  bool freeable = false;
  unsigned scope = 0;
};

/// The most static shape compatible with both (which must be compatible).
std::vector<int64_t> meet(std::vector<int64_t> a,
                          const std::vector<int64_t> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] == kDynamic)
      a[i] = b[i];
  return a;
}

bool compatible(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != kDynamic && b[i] != kDynamic && a[i] != b[i])
      return false;
  return true;
}

class Generator {
public:
  explicit Generator(ByteReader &in) : in(in) {}

  std::string run() {
    text = "module {\n";
    unsigned functions = 1 + in.pick(2);
    for (unsigned f = 0; f < functions; ++f) {
      elem = &kElementTypes[in.pick(std::size(kElementTypes))];
      if (in.chance(70))
        tensorFunction(f);
      else
        memrefFunction(f);
    }
    text += "}\n";
    return text;
  }

private:
  // -- text helpers --------------------------------------------------------
  std::string fresh(const char *prefix) {
    return "%" + std::string(prefix) + std::to_string(counter++);
  }

  void line(const std::string &l) {
    text.append(2 * (depth + 2), ' ');
    text += l;
    text += '\n';
  }

  std::string index(int64_t v) {
    std::string name = fresh("c");
    line(name + " = arith.constant " + std::to_string(v) + " : index");
    return name;
  }

  std::string scalar(const char *value) {
    std::string name = fresh("cst");
    line(name + " = arith.constant " + value + " : " + elem->name);
    return name;
  }

  static std::string dims(const std::vector<int64_t> &shape) {
    std::string s;
    for (int64_t d : shape)
      s += (d == kDynamic ? std::string("?") : std::to_string(d)) + "x";
    return s;
  }

  std::string type(const Value &v) const {
    if (tensors)
      return "tensor<" + dims(v.shape) + elem->name + ">";
    std::string s = "memref<" + dims(v.shape) + elem->name;
    if (!v.layout.empty())
      s += ", " + v.layout;
    if (!v.space.empty())
      s += ", " + v.space;
    return s + ">";
  }

  /// The dynamic sizes of a value of `shape` (all from the index argument).
  std::string dynSizes(const std::vector<int64_t> &shape) const {
    std::string s;
    for (int64_t d : shape)
      if (d == kDynamic)
        s += (s.empty() ? "" : ", ") + sizeArg;
    return s;
  }

  int64_t dim() { return kDims[in.pick(std::size(kDims))]; }

  std::vector<int64_t> shape(unsigned rank) {
    std::vector<int64_t> s;
    for (unsigned i = 0; i < rank; ++i)
      s.push_back(in.chance(dynamicOdds) ? kDynamic : dim());
    return s;
  }

  // -- the pool of values --------------------------------------------------
  /// A visible value of the given rank (any rank when `rank` < 0) compatible
  /// with `like` when given, or null.
  Value *find(int rank, const std::vector<int64_t> *like = nullptr,
              bool identityLayout = false) {
    std::vector<size_t> hits;
    for (size_t i = 0; i < pool.size(); ++i) {
      const Value &v = pool[i];
      if (rank >= 0 && v.shape.size() != static_cast<size_t>(rank))
        continue;
      if (like && !compatible(v.shape, *like))
        continue;
      if (identityLayout && !v.layout.empty())
        continue;
      hits.push_back(i);
    }
    if (hits.empty())
      return nullptr;
    return &pool[hits[in.pick(hits.size())]];
  }

  /// A new buffer (memref: alloc / alloca; tensor: tensor.empty).
  Value make(const std::vector<int64_t> &s) {
    Value v;
    v.name = fresh(tensors ? "t" : "buf");
    v.shape = s;
    v.scope = depth;
    if (tensors) {
      line(v.name + " = tensor.empty(" + dynSizes(s) + ") : " + type(v));
      return v;
    }
    v.space = kSpaces[in.pick(std::size(kSpaces))];
    if (inLaunch && in.chance(160))
      v.space = "#gpu.address_space<workgroup>";
    bool alloca = in.chance(50);
    v.freeable = !alloca;
    v.base = v.name;
    line(v.name + " = memref." + (alloca ? "alloca" : "alloc") + "(" +
         dynSizes(s) + ") : " + type(v));
    return v;
  }

  Value &add(Value v) {
    pool.push_back(std::move(v));
    return pool.back();
  }

  /// An operand: a visible value compatible with `s`, or a new one.
  Value operand(const std::vector<int64_t> &s) {
    if (Value *v = in.chance(200) ? find(s.size(), &s) : nullptr)
      return *v;
    return add(make(s));
  }

  /// An operand of exactly shape `s` where dimension `freeDim` (if any) may
  /// be anything: transpose, reduce and broadcast accept no dynamic size
  /// against a static one.
  Value exactOperand(const std::vector<int64_t> &s, int freeDim = -1) {
    std::vector<size_t> hits;
    for (size_t i = 0; i < pool.size(); ++i) {
      const std::vector<int64_t> &t = pool[i].shape;
      bool same = t.size() == s.size();
      for (size_t d = 0; same && d < s.size(); ++d)
        same = int(d) == freeDim || t[d] == s[d];
      if (same)
        hits.push_back(i);
    }
    if (!hits.empty() && in.chance(200))
      return pool[hits[in.pick(hits.size())]];
    return add(make(s));
  }

  /// Emits `lhs = ` for tensors (a fresh result replacing the destination).
  std::string result(Value &dest) {
    if (!tensors)
      return "";
    dest.name = fresh("r");
    dest.scope = depth;
    return dest.name + " = ";
  }

  // -- statements ----------------------------------------------------------
  void elementwise() {
    Value out = operand(shape(1 + in.pick(2)));
    // Operands must agree with each other, not only with the output.
    std::vector<Value> ins;
    std::vector<int64_t> like = out.shape;
    for (unsigned i = 0, e = in.pick(3); i < e; ++i) {
      ins.push_back(operand(like));
      like = meet(like, ins.back().shape);
    }
    std::string rank = std::to_string(out.shape.size());
    std::string map = "affine_map<(d0) -> (d0)>";
    std::string its = "\"parallel\"";
    if (out.shape.size() == 2) {
      map = "affine_map<(d0, d1) -> (d0, d1)>";
      its = "\"parallel\", \"parallel\"";
    }
    if (!ins.empty() && in.chance(60)) {
      // A named elementwise op.
      const char *op = in.chance(128) ? "linalg.add" : "linalg.mul";
      const Value &b = ins.size() > 1 ? ins[1] : ins[0];
      std::string outType = type(out);
      Value res = out;
      std::string lhs = result(res);
      line(lhs + op + " ins(" + ins[0].name + ", " + b.name + " : " +
           type(ins[0]) + ", " + type(b) + ") outs(" + out.name + " : " +
           outType + ")" + (tensors ? " -> " + outType : ""));
      if (tensors)
        add(res);
      return;
    }
    std::string maps, operands, types, args;
    for (const Value &v : ins) {
      maps += map + ", ";
      operands += (operands.empty() ? "" : ", ") + v.name;
      types += (types.empty() ? "" : ", ") + type(v);
    }
    maps += map;
    std::string outType = type(out);
    Value res = out;
    std::string lhs = result(res);
    line(lhs + "linalg.generic {indexing_maps = [" + maps +
         "], iterator_types = [" + its + "]}" +
         (ins.empty() ? "" : " ins(" + operands + " : " + types + ")") +
         " outs(" + out.name + " : " + outType + ") {");
    std::vector<std::string> blockArgs;
    std::string header;
    for (size_t i = 0; i <= ins.size(); ++i) {
      blockArgs.push_back(fresh("a"));
      header += (i ? ", " : "") + blockArgs.back() + ": " + elem->name;
    }
    line("^bb0(" + header + "):");
    ++depth;
    std::string acc = blockArgs[0];
    for (size_t i = 1; i < blockArgs.size(); ++i) {
      std::string next = fresh("e");
      const char *op = in.pick(2) ? elem->add : elem->max;
      line(next + " = " + op + " " + acc + ", " + blockArgs[i] + " : " +
           elem->name);
      acc = next;
    }
    if (in.chance(128)) {
      std::string k = scalar(elem->other);
      std::string next = fresh("e");
      line(next + " = " + elem->mul + " " + acc + ", " + k + " : " +
           elem->name);
      acc = next;
    }
    line(std::string("linalg.yield ") + acc + " : " + elem->name);
    --depth;
    line("}" + (tensors ? " -> " + outType : std::string()));
    if (tensors)
      add(res);
  }

  void fill() {
    Value out = operand(shape(1 + in.pick(2)));
    std::string k = scalar(in.chance(128) ? elem->zero : elem->other);
    std::string outType = type(out);
    Value res = out;
    std::string lhs = result(res);
    line(lhs + "linalg.fill ins(" + k + " : " + elem->name + ") outs(" +
         out.name + " : " + outType + ")" + (tensors ? " -> " + outType : ""));
    if (tensors)
      add(res);
  }

  void matmul() {
    std::vector<int64_t> cs = shape(2);
    Value c = operand(cs);
    Value a = operand({c.shape[0], in.chance(40) ? kDynamic : dim()});
    Value b = operand({a.shape[1], c.shape[1]});
    std::string cType = type(c);
    Value res = c;
    std::string lhs = result(res);
    line(lhs + "linalg.matmul ins(" + a.name + ", " + b.name + " : " + type(a) +
         ", " + type(b) + ") outs(" + c.name + " : " + cType + ")" +
         (tensors ? " -> " + cType : ""));
    if (tensors)
      add(res);
  }

  /// `op ins(src) outs(dst) tail` (then `region`); for tensors the result
  /// replaces the destination.
  void unary(const char *op, const Value &src, const Value &dst,
             const std::string &tail,
             const std::vector<std::string> &region = {}) {
    Value res = dst;
    std::string lhs = result(res);
    line(lhs + op + " ins(" + src.name + " : " + type(src) + ") outs(" +
         dst.name + " : " + type(dst) + ") " + tail);
    for (const std::string &l : region)
      line(l);
    if (tensors)
      add(res);
  }

  void transpose() {
    Value src = operand(shape(2));
    unary("linalg.transpose", src, exactOperand({src.shape[1], src.shape[0]}),
          "permutation = [1, 0]");
  }

  void reduce() {
    Value src = operand(shape(2));
    Value dst = exactOperand({src.shape[0]});
    std::string x = fresh("x"), acc = fresh("acc"), s = fresh("s");
    const char *combine = in.pick(2) ? elem->add : elem->max;
    unary(
        "linalg.reduce", src, dst, "dimensions = [1]",
        {"  (" + x + ": " + elem->name + ", " + acc + ": " + elem->name + ") {",
         "    " + s + " = " + combine + " " + x + ", " + acc + " : " +
             elem->name,
         "    linalg.yield " + s + " : " + elem->name, "  }"});
  }

  void broadcast() {
    Value src = operand(shape(1));
    unary("linalg.broadcast", src,
          exactOperand({dim(), src.shape[0]}, /*freeDim=*/0),
          "dimensions = [0]");
  }

  void copy() {
    Value src = operand(shape(1 + in.pick(2)));
    Value dst = operand(src.shape);
    if (!tensors && in.chance(128)) {
      line("memref.copy " + src.name + ", " + dst.name + " : " + type(src) +
           " to " + type(dst));
      return;
    }
    std::string dstType = type(dst);
    Value res = dst;
    std::string lhs = result(res);
    line(lhs + "linalg.copy ins(" + src.name + " : " + type(src) + ") outs(" +
         dst.name + " : " + dstType + ")" + (tensors ? " -> " + dstType : ""));
    if (tensors)
      add(res);
  }

  /// memref: frees a buffer this scope allocated (its views die with it).
  void dealloc() {
    std::vector<size_t> hits;
    for (size_t i = 0; i < pool.size(); ++i)
      if (pool[i].freeable && pool[i].scope == depth)
        hits.push_back(i);
    if (hits.empty())
      return;
    Value v = pool[hits[in.pick(hits.size())]];
    line("memref.dealloc " + v.name + " : " + type(v));
    std::vector<Value> kept;
    for (Value &p : pool)
      if (p.base != v.base)
        kept.push_back(std::move(p));
    pool = std::move(kept);
  }

  /// memref: scalar load, arithmetic, store (indices: constants or ivs).
  void scalarAccess() {
    Value *src = find(-1);
    Value *dst = find(-1);
    if (!src || !dst)
      return;
    auto indices = [&](const Value &v) {
      std::string s;
      for (size_t i = 0; i < v.shape.size(); ++i) {
        std::string idx =
            !ivs.empty() && in.pick(2) ? ivs[in.pick(ivs.size())] : index(0);
        s += (i ? ", " : "") + idx;
      }
      return s;
    };
    std::string x = fresh("x");
    line(x + " = memref.load " + src->name + "[" + indices(*src) +
         "] : " + type(*src));
    std::string y = fresh("y");
    line(y + " = " + elem->add + " " + x + ", " + x + " : " + elem->name);
    line("memref.store " + y + ", " + dst->name + "[" + indices(*dst) +
         "] : " + type(*dst));
  }

  /// memref: a vector transfer between two buffers.
  void vectorTransfer() {
    Value *src = find(-1);
    Value *dst = find(-1);
    if (!src || !dst)
      return;
    unsigned rank = std::min<size_t>(
        1 + in.pick(2), std::min(src->shape.size(), dst->shape.size()));
    std::string vt =
        std::string("vector<") + (rank == 2 ? "4x4x" : "4x") + elem->name + ">";
    std::string pad = scalar(elem->zero);
    auto zeros = [&](const Value &v) {
      std::string c0 = index(0), s;
      for (size_t i = 0; i < v.shape.size(); ++i)
        s += (i ? ", " : "") + c0;
      return s;
    };
    std::string vec = fresh("v");
    line(vec + " = vector.transfer_read " + src->name + "[" + zeros(*src) +
         "], " + pad + " : " + type(*src) + ", " + vt);
    line("vector.transfer_write " + vec + ", " + dst->name + "[" + zeros(*dst) +
         "] : " + vt + ", " + type(*dst));
  }

  /// memref, inside a loop: a tile of a buffer at the induction variable,
  /// usually staged into an on-chip buffer (the pattern pipelining targets).
  void stage() {
    if (ivs.empty())
      return;
    Value *srcp = find(2, nullptr, /*identityLayout=*/true);
    if (!srcp)
      return;
    Value src = *srcp;
    int64_t rows = int64_t(1) << in.pick(4);
    int64_t cols = src.shape[1];
    std::string stride0 = cols == kDynamic ? "?" : std::to_string(cols);
    Value view;
    view.name = fresh("sv");
    view.shape = {rows, cols};
    view.space = src.space;
    view.layout = "strided<[" + stride0 + ", 1], offset: ?>";
    view.base = src.base;
    view.scope = depth;
    std::string sizes = std::to_string(rows) + ", " +
                        (cols == kDynamic ? sizeArg : std::to_string(cols));
    line(view.name + " = memref.subview " + src.name + "[" +
         ivs[in.pick(ivs.size())] + ", 0] [" + sizes +
         "] [1, 1] : " + type(src) + " to " + type(view));
    add(view);
    if (in.chance(200)) {
      Value tile = add(make(view.shape));
      if (in.chance(128))
        line("memref.copy " + view.name + ", " + tile.name + " : " +
             type(view) + " to " + type(tile));
      else
        line("linalg.copy ins(" + view.name + " : " + type(view) + ") outs(" +
             tile.name + " : " + type(tile) + ")");
    }
  }

  std::string sliceSizes(const Value &v) const {
    return std::to_string(v.shape[0]) + ", " +
           (v.shape[1] == kDynamic ? sizeArg : std::to_string(v.shape[1]));
  }

  /// tensor, inside a loop: a slice of the loop-carried tensor.
  Value slice(const Value &carried, const std::string &iv) {
    Value s;
    s.name = fresh("sl");
    s.shape = {int64_t(1) << in.pick(4), carried.shape[1]};
    s.scope = depth;
    line(s.name + " = tensor.extract_slice " + carried.name + "[" + iv +
         ", 0] [" + sliceSizes(s) + "] [1, 1] : " + type(carried) + " to " +
         type(s));
    return add(s);
  }

  void loop() {
    std::string lb = index(in.pick(2));
    std::string ub =
        in.chance(60) ? sizeArg : index(int64_t(in.pick(9)) * (1 + in.pick(4)));
    std::string step = index(1 + in.pick(4));
    std::string iv = fresh("i");
    // Tensors carry a 2-D tensor; memrefs sometimes a scalar accumulator.
    Value *carriedp = tensors ? find(2) : nullptr;
    if (tensors && !carriedp)
      carriedp = &add(make(shape(2)));
    bool scalarAcc = !tensors && in.chance(70);
    std::string res = fresh("loop"), acc = fresh("it"), init;
    std::string head =
        "scf.for " + iv + " = " + lb + " to " + ub + " step " + step;
    Value carried;
    if (tensors) {
      carried = *carriedp;
      head = res + " = " + head + " iter_args(" + acc + " = " + carried.name +
             ") -> (" + type(carried) + ")";
    } else if (scalarAcc) {
      init = scalar(elem->zero);
      head = res + " = " + head + " iter_args(" + acc + " = " + init +
             ") -> (" + elem->name + ")";
    }
    line(head + " {");
    size_t poolSize = pool.size();
    ++depth;
    ivs.push_back(iv);
    Value inner = carried;
    Value sliced;
    bool haveSlice = false;
    if (tensors) {
      inner.name = acc;
      inner.scope = depth;
      add(inner);
      if (in.chance(200)) {
        sliced = slice(inner, iv);
        haveSlice = true;
      }
    }
    body(2 + in.pick(5));
    if (tensors) {
      // Insert the newest value of the slice's type back, or yield the
      // newest value of the carried type (at least the iter_arg itself).
      const Value *piece = nullptr;
      for (size_t i = pool.size(); haveSlice && !piece && i > poolSize; --i)
        if (type(pool[i - 1]) == type(sliced))
          piece = &pool[i - 1];
      std::string yield = acc;
      if (piece) {
        yield = fresh("ins");
        line(yield + " = tensor.insert_slice " + piece->name + " into " + acc +
             "[" + iv + ", 0] [" + sliceSizes(sliced) +
             "] [1, 1] : " + type(sliced) + " into " + type(carried));
      } else {
        for (size_t i = pool.size(); i > poolSize; --i)
          if (type(pool[i - 1]) == type(carried)) {
            yield = pool[i - 1].name;
            break;
          }
      }
      line("scf.yield " + yield + " : " + type(carried));
    } else if (scalarAcc) {
      std::string next = fresh("s");
      line(next + " = " + elem->add + " " + acc + ", " + acc + " : " +
           elem->name);
      line("scf.yield " + next + " : " + elem->name);
    }
    ivs.pop_back();
    --depth;
    pool.resize(poolSize);
    line("}");
    if (tensors) {
      carried.name = res;
      carried.scope = depth;
      add(carried);
    }
  }

  void branch() {
    std::string cond = fresh("cond");
    if (!ivs.empty()) {
      std::string k = index(in.pick(4));
      line(cond + " = arith.cmpi slt, " + ivs.back() + ", " + k + " : index");
    } else {
      line(cond + " = arith.constant " + (in.pick(2) ? "true" : "false"));
    }
    line("scf.if " + cond + " {");
    size_t poolSize = pool.size();
    ++depth;
    body(1 + in.pick(4));
    --depth;
    pool.resize(poolSize);
    line("}");
  }

  void launch() {
    std::string one = index(1), threads = index(int64_t(32) << in.pick(3));
    std::string bx = fresh("bx"), by = fresh("by"), bz = fresh("bz");
    std::string tx = fresh("tx"), ty = fresh("ty"), tz = fresh("tz");
    std::string gx = fresh("gx"), gy = fresh("gy"), gz = fresh("gz");
    std::string sx = fresh("sx"), sy = fresh("sy"), sz = fresh("sz");
    line("gpu.launch blocks(" + bx + ", " + by + ", " + bz + ") in (" + gx +
         " = " + one + ", " + gy + " = " + one + ", " + gz + " = " + one +
         ") threads(" + tx + ", " + ty + ", " + tz + ") in (" + sx + " = " +
         threads + ", " + sy + " = " + one + ", " + sz + " = " + one + ") {");
    size_t poolSize = pool.size();
    ++depth;
    inLaunch = true;
    ivs.push_back(tx);
    body(2 + in.pick(6));
    ivs.pop_back();
    inLaunch = false;
    line("gpu.terminator");
    --depth;
    pool.resize(poolSize);
    line("}");
  }

  void statement() {
    if (tensors) {
      switch (in.pick(8)) {
      case 0:
      case 1:
        return elementwise();
      case 2:
        return matmul();
      case 3:
        return fill();
      case 4:
        return transpose();
      case 5:
        return reduce();
      case 6:
        return broadcast();
      default:
        return depth < 2 ? loop() : copy();
      }
    }
    switch (in.pick(16)) {
    case 0:
      add(make(shape(1 + in.pick(2))));
      return;
    case 1:
    case 2:
      return elementwise();
    case 3:
      return matmul();
    case 4:
      return fill();
    case 5:
      return copy();
    case 6:
      return transpose();
    case 7:
      return reduce();
    case 8:
      return broadcast();
    case 9:
      return dealloc();
    case 10:
      return scalarAccess();
    case 11:
      return vectorTransfer();
    case 12:
      return stage();
    case 13:
      if (inLaunch)
        return line("gpu.barrier");
      return depth < 3 ? branch() : copy();
    case 14:
      if (depth == 0 && !inLaunch && in.chance(128))
        return launch();
      [[fallthrough]];
    default:
      return depth < 3 ? loop() : stage();
    }
  }

  void body(unsigned n) {
    for (unsigned i = 0; i < n && budget > 0; ++i, --budget)
      statement();
  }

  void params(unsigned f, std::string &signature) {
    sizeArg = "%n" + std::to_string(f);
    signature = sizeArg + ": index";
    unsigned args = 1 + in.pick(3);
    for (unsigned i = 0; i < args; ++i) {
      Value v;
      v.name = "%arg" + std::to_string(f) + "_" + std::to_string(i);
      v.shape = shape(1 + in.pick(2));
      signature += ", " + v.name + ": " + type(v);
      if (!tensors && in.chance(100))
        signature += " {llvm.noalias}";
      add(v);
    }
  }

  void memrefFunction(unsigned f) {
    tensors = false;
    startFunction();
    std::string signature;
    params(f, signature);
    text +=
        "  func.func @kernel" + std::to_string(f) + "(" + signature + ") {\n";
    body(budget);
    line("return");
    text += "  }\n";
  }

  void tensorFunction(unsigned f) {
    tensors = true;
    startFunction();
    std::string signature;
    params(f, signature);
    size_t header = text.size();
    body(budget);
    const Value &last = pool.back();
    line("return " + last.name + " : " + type(last));
    text.insert(header, "  func.func @tensors" + std::to_string(f) + "(" +
                            signature + ") -> " + type(last) + " {\n");
    text += "  }\n";
  }

  void startFunction() {
    pool.clear();
    ivs.clear();
    depth = 0;
    budget = 3 + in.pick(20);
    dynamicOdds = in.chance(100) ? 40 : 0;
  }

  ByteReader &in;
  const ElementType *elem = &kElementTypes[0];
  std::string text;
  unsigned counter = 0;
  std::vector<Value> pool;
  std::vector<std::string> ivs;
  std::string sizeArg;
  unsigned depth = 0;
  unsigned budget = 0;
  unsigned dynamicOdds = 0;
  bool tensors = false;
  bool inLaunch = false;
};

} // namespace

std::string hwsched::fuzz::generatePayload(ByteReader &in) {
  return Generator(in).run();
}
