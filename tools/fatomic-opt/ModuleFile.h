//===- ModuleFile.h - Reading and writing SPIR-V binaries -----------------===//
//
// "-" names standard input or output.  The output is written as spirv-opt
// writes it, except that a regular file is never left partly written:
//
//   regular or new file   the words go to a temporary file in the same
//                         directory, which replaces the file in one rename;
//                         an existing file keeps its mode, and one that may
//                         not be written is refused as spirv-opt refuses it
//   symbolic link         followed: the link stays, its target is written
//                         (by the rule for the kind of file it is)
//   FIFO, device, socket, written through: the node stays what it is and
//   hard-linked file      its reader or device gets the bytes
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

/// Writes \p Words to \p Path (see the file comment).  Called only once
/// every step has succeeded, so nothing is written on an error.  On failure
/// returns false, sets \p Error and leaves a regular file as it was.
bool writeModule(const std::string &Path, const std::vector<uint32_t> &Words,
                 std::string &Error);

/// The name to show in diagnostics: "<stdin>" for "-".
std::string displayName(const std::string &Path);

} // namespace fatomic_opt

#endif // FATOMIC_OPT_MODULEFILE_H
