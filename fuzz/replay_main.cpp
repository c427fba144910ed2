//===- replay_main.cpp - Runs a fuzz target on files, without libFuzzer ---===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Links the same LLVMFuzzerTestOneInput as the libFuzzer binary, built with
// the project's compiler (and sanitizers in the sanitized build): replays
// every file given (directories are walked) and prints how many ran. Used by
// CI to replay the corpus and every crash ever found, and where clang's
// libFuzzer is not available.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto &entry :
           std::filesystem::recursive_directory_iterator(path))
        if (entry.is_regular_file())
          files.push_back(entry.path().string());
    } else {
      files.push_back(path.string());
    }
  }
  std::sort(files.begin(), files.end());
  for (const std::string &file : files) {
    std::ifstream in(file, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.data()),
                           data.size());
  }
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
