//===- ModuleFile.h - Reading and writing SPIR-V binaries -----------------===//
//
// "-" names standard input or output.  Writing a file never leaves a partial
// result behind: the words go to a temporary file in the target directory,
// which then replaces the target in one rename.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_OPT_MODULEFILE_H
#define FATOMIC_OPT_MODULEFILE_H

#include <cstdint>
#include <string>
#include <vector>

namespace fatomic_opt {

/// Reads a SPIR-V binary and checks its shape: a whole number of words, a
/// complete header, the magic number, a non-zero id bound, at least one
/// instruction, known opcodes, and word counts that are not 0 and do not
/// run past the end.
/// A module in the other byte order is converted to host order.  On failure
/// returns false and sets \p Error.
bool readModule(const std::string &Path, std::vector<uint32_t> &Words,
                std::string &Error);

/// Writes \p Words to \p Path, replacing it only on success.  On failure
/// returns false, sets \p Error and leaves \p Path as it was.
bool writeModule(const std::string &Path, const std::vector<uint32_t> &Words,
                 std::string &Error);

/// The name to show in diagnostics: "<stdin>" for "-".
std::string displayName(const std::string &Path);

} // namespace fatomic_opt

#endif // FATOMIC_OPT_MODULEFILE_H
