//===- FuzzInput.h - Reads decisions from a fuzzer's bytes ------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The op fuzzer turns its input bytes into decisions (which op, which spec,
// which payload statement comes next, ...). Every decision consumes bytes
// from the front, and an exhausted input answers 0 forever, so any byte
// string is a valid input and short inputs give small, simple cases: the
// fuzzer's mutations of one byte change one decision.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_FUZZ_FUZZINPUT_H
#define HWSCHED_FUZZ_FUZZINPUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>

namespace hwsched::fuzz {

/// A cursor over the fuzzer's input bytes.
class ByteReader {
public:
  ByteReader(const uint8_t *data, size_t size) : data(data), size(size) {}

  /// The next byte, or 0 once the input is exhausted.
  uint8_t byte() { return pos < size ? data[pos++] : 0; }

  /// A choice among `n` alternatives (n > 0); 0 when exhausted.
  unsigned pick(unsigned n) { return n <= 1 ? 0 : byte() % n; }

  /// One element of `choices` (which must not be empty).
  template <typename T> const T &pick(llvm::ArrayRef<T> choices) {
    return choices[pick(choices.size())];
  }

  /// True with probability about num/256 per fresh byte.
  bool chance(unsigned num) { return byte() < num; }

  bool exhausted() const { return pos >= size; }

  /// The bytes not consumed yet (as text, for a payload given verbatim).
  llvm::StringRef rest() const {
    return llvm::StringRef(reinterpret_cast<const char *>(data) + pos,
                           size - pos);
  }

  /// Consumes everything left.
  void consumeAll() { pos = size; }

private:
  const uint8_t *data;
  size_t size;
  size_t pos = 0;
};

} // namespace hwsched::fuzz

#endif // HWSCHED_FUZZ_FUZZINPUT_H
