//===- ModuleFile.cpp - Reading and writing SPIR-V binaries ---------------===//

#include "ModuleFile.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp11>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fatomic_opt {

namespace {

constexpr size_t HeaderWords = 5;

std::string systemError() { return std::strerror(errno); }

std::string hex(uint32_t Value) {
  char Text[16];
  std::snprintf(Text, sizeof(Text), "0x%08x", Value);
  return Text;
}

struct FileCloser {
  void operator()(std::FILE *F) const { std::fclose(F); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

bool readBytes(std::FILE *In, std::vector<char> &Bytes) {
  char Buffer[1 << 16];
  size_t N;
  while ((N = std::fread(Buffer, 1, sizeof(Buffer), In)) > 0)
    Bytes.insert(Bytes.end(), Buffer, Buffer + N);
  return !std::ferror(In);
}

bool writeAll(int Fd, const char *Data, size_t Size) {
  while (Size > 0) {
    const ssize_t N = ::write(Fd, Data, Size);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    Data += N;
    Size -= size_t(N);
  }
  return true;
}

/// The permissions a newly created file gets: 0666 less the umask.
mode_t newFileMode() {
  const mode_t Mask = ::umask(0);
  ::umask(Mask);
  return 0666 & ~Mask;
}

/// True when \p Bytes starts like a text file (SPIR-V assembly, GLSL...).
bool looksLikeText(const std::vector<char> &Bytes) {
  const size_t N = std::min<size_t>(Bytes.size(), 64);
  for (size_t I = 0; I < N; ++I) {
    const unsigned char C = static_cast<unsigned char>(Bytes[I]);
    if (C < 0x20 && C != '\n' && C != '\r' && C != '\t')
      return false;
    if (C >= 0x7f)
      return false;
  }
  return N > 0;
}

std::string opcodeName(uint32_t Opcode) {
  const std::string Name = spvOpcodeString(Opcode);
  return Name == "unknown" ? "opcode " + std::to_string(Opcode) : "Op" + Name;
}

/// The framing of the words after the header: every instruction has a known
/// opcode and a word count that is at least 1 and stays within the module.  spirv-val and the
/// module reader find these too; here the message says where.
bool checkFraming(const std::vector<uint32_t> &Words, std::string &Error) {
  if (Words.size() == HeaderWords) {
    Error = "SPIR-V header only (20 bytes): the module has no instructions";
    return false;
  }
  if (Words[3] == 0) {
    Error = "id bound 0 in the header: a module with instructions has ids, "
            "and the bound is one more than the largest";
    return false;
  }
  size_t Index = 1;
  for (size_t I = HeaderWords; I < Words.size(); ++Index) {
    const uint32_t Count = Words[I] >> 16;
    const uint32_t Opcode = Words[I] & 0xFFFF;
    const std::string Where = "instruction " + std::to_string(Index) +
                              " (" + opcodeName(Opcode) + ", at word " +
                              std::to_string(I) + ")";
    if (Count == 0) {
      Error = Where + " has word count 0";
      return false;
    }
    if (std::string(spvOpcodeString(Opcode)) == "unknown") {
      Error = Where + ": unknown opcode";
      return false;
    }
    if (I + Count > Words.size()) {
      Error = Where + " has word count " + std::to_string(Count) +
              ", running " + std::to_string(I + Count - Words.size()) +
              " word(s) past the end of the module (" +
              std::to_string(Words.size()) + " words)";
      return false;
    }
    I += Count;
  }
  return true;
}

/// The byte offset where the words of \p Bytes stop framing instructions:
/// the first instruction with word count 0, an unknown opcode or a count past
/// the end, or the end of the last whole word.
size_t framedEnd(const std::vector<char> &Bytes, bool Swapped) {
  const size_t NumWords = Bytes.size() / 4;
  const auto Word = [&](size_t I) {
    uint32_t W;
    std::memcpy(&W, Bytes.data() + 4 * I, 4);
    return Swapped ? __builtin_bswap32(W) : W;
  };
  size_t I = HeaderWords;
  while (I < NumWords) {
    const uint32_t Count = Word(I) >> 16;
    if (Count == 0 || I + Count > NumWords ||
        std::string(spvOpcodeString(Word(I) & 0xFFFF)) == "unknown")
      break;
    I += Count;
  }
  return 4 * I;
}

/// When \p Bytes is a module followed by lines of text (glslangValidator
/// without --quiet writes the shader's file name and a newline to standard
/// output after the module), sets \p Error to say so and returns true.
bool findTrailingText(const std::vector<char> &Bytes, bool Swapped,
                      std::string &Error) {
  const size_t End = framedEnd(Bytes, Swapped);
  if (End <= HeaderWords * 4 || End >= Bytes.size())
    return false;
  const std::vector<char> Tail(Bytes.begin() + End, Bytes.end());
  // Lines of text end with a newline; a stray byte or two is corruption.
  if (Tail.back() != '\n')
    return false;
  for (char C : Tail) {
    const unsigned char U = static_cast<unsigned char>(C);
    if ((U < 0x20 && U != '\n' && U != '\r' && U != '\t') || U >= 0x7f)
      return false;
  }
  std::string Line(Tail.begin(), Tail.end());
  Line = Line.substr(0, std::min(Line.find_first_of("\r\n"), size_t(40)));
  Error = "text after the module: " + std::to_string(Tail.size()) +
          " bytes at byte " + std::to_string(End) + " (\"" + Line +
          "\"); glslangValidator writes the shader's file name to standard "
          "output after the module unless given --quiet";
  return true;
}

} // namespace

std::string displayName(const std::string &Path) {
  return Path == "-" ? "<stdin>" : Path;
}

bool readModule(const std::string &Path, std::vector<uint32_t> &Words,
                std::string &Error) {
  std::vector<char> Bytes;
  if (Path == "-") {
    if (!readBytes(stdin, Bytes)) {
      Error = "cannot read standard input: " + systemError();
      return false;
    }
  } else {
    FilePtr In(std::fopen(Path.c_str(), "rb"));
    if (!In) {
      Error = "cannot open: " + systemError();
      return false;
    }
    if (!readBytes(In.get(), Bytes)) {
      Error = "cannot read: " + systemError();
      return false;
    }
  }

  uint32_t Magic = 0;
  if (Bytes.size() >= sizeof(Magic))
    std::memcpy(&Magic, Bytes.data(), sizeof(Magic));
  const bool Swapped = Magic == __builtin_bswap32(spv::MagicNumber);
  if (Magic != spv::MagicNumber && !Swapped) {
    if (Bytes.empty())
      Error = "empty input: not a SPIR-V binary";
    else if (Bytes.size() < sizeof(Magic))
      Error = "not a SPIR-V binary: only " + std::to_string(Bytes.size()) +
              " bytes";
    else
      Error = "not a SPIR-V binary: magic number " + hex(Magic) +
              ", expected " + hex(spv::MagicNumber) +
              (looksLikeText(Bytes) ? " (this is text: assemble SPIR-V "
                                      "assembly with spirv-as, compile GLSL "
                                      "with glslangValidator)"
                                    : "");
    return false;
  }
  if (Bytes.size() >= HeaderWords * 4 &&
      findTrailingText(Bytes, Swapped, Error))
    return false;
  if (Bytes.size() % 4 != 0) {
    Error = "corrupt SPIR-V binary: size " + std::to_string(Bytes.size()) +
            " bytes is not a multiple of 4";
    return false;
  }
  if (Bytes.size() < HeaderWords * 4) {
    Error = "truncated SPIR-V binary: " + std::to_string(Bytes.size()) +
            " bytes, shorter than the 20-byte header";
    return false;
  }

  Words.resize(Bytes.size() / 4);
  std::memcpy(Words.data(), Bytes.data(), Bytes.size());
  if (Swapped)
    for (uint32_t &W : Words)
      W = __builtin_bswap32(W);
  return checkFraming(Words, Error);
}

namespace {

/// Closes \p Fd; false, with errno from the first failure, when \p Ok is
/// false or close fails.
bool closeKeepingErrno(int Fd, bool Ok) {
  const int Saved = errno;
  const bool Closed = ::close(Fd) == 0;
  if (!Ok)
    errno = Saved;
  return Ok && Closed;
}

/// Writes \p Data to \p Path through open(2), as spirv-opt's fopen(..., "wb")
/// does: a FIFO's reader or a device gets the bytes and the node itself stays
/// what it is.  False with errno set on failure.
bool writeThrough(const std::string &Path, const char *Data, size_t Size) {
  const int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  return Fd >= 0 && closeKeepingErrno(Fd, writeAll(Fd, Data, Size));
}

/// The file a chain of symbolic links at \p Path ends at (which need not
/// exist yet).  Empty, with errno set, on a loop or an unreadable link.
std::string followLinks(std::string Path) {
  for (int Depth = 0; Depth < 40; ++Depth) {
    struct stat Link;
    if (::lstat(Path.c_str(), &Link) != 0 || !S_ISLNK(Link.st_mode))
      return Path;
    std::string Target(size_t(Link.st_size > 0 ? Link.st_size : 4096) + 1,
                       '\0');
    const ssize_t N = ::readlink(Path.c_str(), Target.data(), Target.size());
    if (N < 0)
      return "";
    Target.resize(size_t(N));
    const std::filesystem::path Next(Target);
    Path = Next.is_absolute()
               ? Target
               : (std::filesystem::path(Path).parent_path() / Next).string();
  }
  errno = ELOOP;
  return "";
}

/// Writes a regular or new file at \p Path: the bytes go to a temporary file
/// in the same directory, which then replaces \p Path in one rename, so that
/// a failure never leaves a partial file.  An existing file (\p Existing)
/// keeps its mode (and its owner, where we may set it), and one we may not
/// write is refused, as spirv-opt refuses it.  False with errno set on
/// failure.
bool replaceRegular(const std::string &Path, const struct stat *Existing,
                    const char *Data, size_t Size) {
  mode_t Mode = newFileMode();
  if (Existing) {
    // Opened without O_TRUNC: this only asks whether we may write it.
    const int Probe = ::open(Path.c_str(), O_WRONLY);
    if (Probe < 0)
      return false;
    ::close(Probe);
    Mode = Existing->st_mode & 07777;
  }

  const std::filesystem::path Target(Path);
  std::filesystem::path Temp = Target.parent_path();
  Temp /= "." + Target.filename().string() + ".XXXXXX";
  std::string TempName = Temp.string();
  const int Fd = ::mkstemp(TempName.data());
  if (Fd < 0) {
    // A writable file in a directory we may not create files in: spirv-opt
    // writes it in place, and so do we.
    if (Existing && (errno == EACCES || errno == EPERM || errno == EROFS))
      return writeThrough(Path, Data, Size);
    return false;
  }
  if (Existing) {
    // The owner too where we may set it (as root); set-id bits only with it.
    if (::fchown(Fd, Existing->st_uid, Existing->st_gid) != 0)
      Mode &= 0777;
  }
  const bool Written = ::fchmod(Fd, Mode) == 0 && writeAll(Fd, Data, Size);
  if (closeKeepingErrno(Fd, Written) &&
      std::rename(TempName.c_str(), Path.c_str()) == 0)
    return true;
  const int Saved = errno;
  ::unlink(TempName.c_str());
  errno = Saved;
  return false;
}

/// Writes \p Data to the file system object at \p Path as spirv-opt would,
/// without ever leaving a partial regular file.  False with errno set.
bool writeFile(const std::string &Path, const char *Data, size_t Size) {
  // A symlink is kept: what it points to is written (or created).
  const std::string Resolved = followLinks(Path);
  if (Resolved.empty())
    return false;
  struct stat Info;
  if (::stat(Resolved.c_str(), &Info) != 0)
    return errno == ENOENT && replaceRegular(Resolved, nullptr, Data, Size);
  // FIFOs, devices and sockets are written through, and so is a file with
  // more than one hard link (a rename would split the links).
  if (!S_ISREG(Info.st_mode) || Info.st_nlink > 1)
    return writeThrough(Resolved, Data, Size);
  return replaceRegular(Resolved, &Info, Data, Size);
}

} // namespace

bool writeModule(const std::string &Path, const std::vector<uint32_t> &Words,
                 std::string &Error) {
  const char *Data = reinterpret_cast<const char *>(Words.data());
  const size_t Size = Words.size() * sizeof(uint32_t);

  if (Path == "-") {
    if (std::fwrite(Data, 1, Size, stdout) != Size || std::fflush(stdout)) {
      Error = "cannot write to standard output: " + systemError();
      return false;
    }
    return true;
  }
  if (!writeFile(Path, Data, Size)) {
    Error = "cannot write '" + Path + "': " + systemError();
    return false;
  }
  return true;
}

} // namespace fatomic_opt
