//===- ModuleFile.h - Reading and writing SPIR-V binaries -----------------===//
//
// "-" names standard input or output.  The output is written as spirv-opt
// writes it, except that a regular file is never left partly written where
// it can be helped:
//
//   regular or new file   the words go to a temporary file ".fatomic.XXXXXX"
//                         in the same directory, which replaces the file in
//                         one rename; an existing file keeps its mode, owner
//                         and group, and one that may not be written is
//                         refused as spirv-opt refuses it.  SIGINT, SIGTERM
//                         and SIGHUP remove the temporary.
//   regular file a new    written in place, after reserving its room
//   one cannot stand in   (fallocate) and checking the file-size limit
//   for                   (RLIMIT_FSIZE): several hard links, extended
//                         attributes or ACLs, an owner or group we may not
//                         give, a directory that forbids the temporary or
//                         the rename (read-only, sticky)
//   symbolic link         followed: the link stays, its target is written
//                         (by the rule for the kind of file it is)
//   FIFO, device, socket  written through, by any name that reaches it
//                         (/dev/stdout, /dev/fd/N): the node stays what it
//                         is and its reader or device gets the bytes
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
/// returns false, sets \p Error and leaves a regular file as it was (save
/// an I/O error in the middle of an in-place write).
bool writeModule(const std::string &Path, const std::vector<uint32_t> &Words,
                 std::string &Error);

/// The name to show in diagnostics: "<stdin>" for "-", '' for "".
std::string displayName(const std::string &Path);

} // namespace fatomic_opt

#endif // FATOMIC_OPT_MODULEFILE_H
