//===- ModuleFile.cpp - Reading and writing SPIR-V binaries ---------------===//

#include "ModuleFile.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp11>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <atomic>
#include <cstring>
#include <iterator>
#include <filesystem>
#include <memory>
#include <random>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/xattr.h>
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

/// Creates a new file \p Name, whose last six characters are "XXXXXX" and
/// are replaced as mkstemp replaces them, with mode \p Mode: 0666 for a new
/// output, as fopen creates spirv-opt's (the kernel then takes away the
/// umask, or applies the directory's default ACL where it has one), 0600
/// for the replacement of an existing one, which no one else may open
/// before it has that file's mode.  A descriptor, or -1 with errno set.
int createTemp(std::string &Name, mode_t Mode) {
  static const char Letters[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  constexpr uint64_t Base = sizeof(Letters) - 1;
  std::random_device Entropy;
  const size_t Tail = Name.size() - 6;
  for (int Attempt = 0; Attempt < 1000; ++Attempt) {
    // Six letters of 62 from 64 random bits.
    uint64_t Bits = uint64_t(Entropy()) << 32 | Entropy();
    for (size_t I = Tail; I < Name.size(); ++I, Bits /= Base)
      Name[I] = Letters[Bits % Base];
    const int Fd =
        ::open(Name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, Mode);
    if (Fd >= 0 || errno != EEXIST)
      return Fd;
  }
  errno = EEXIST;
  return -1;
}

/// Drops the access ACL that \p Fd, a new file, took from its directory's
/// default ACL: it replaces a file that had none (one with an ACL is
/// written in place).  False with errno set where it could not.
bool dropInheritedAcl(int Fd) {
  if (::fremovexattr(Fd, "system.posix_acl_access") == 0)
    return true;
  return errno == ENODATA || errno == ENOTSUP || errno == EOPNOTSUPP;
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
  return Path == "-" ? "<stdin>" : Path.empty() ? "''" : Path;
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

/// The descriptor of this process that is the socket \p Info (what
/// /dev/stdout or /dev/fd/N lead to), or -1.
int socketDescriptor(const struct stat &Info) {
  for (int Fd = 0; Fd < 1024; ++Fd) {
    struct stat Open;
    if (::fstat(Fd, &Open) == 0 && S_ISSOCK(Open.st_mode) &&
        Open.st_dev == Info.st_dev && Open.st_ino == Info.st_ino)
      return Fd;
  }
  return -1;
}

/// Writes \p Data to \p Path through open(2), as spirv-opt's fopen(..., "wb")
/// does: a FIFO's reader or a device gets the bytes and the node itself stays
/// what it is.  A socket, which open(2) cannot open (ENXIO), is written
/// through the descriptor of ours that it is, where there is one (-o
/// /dev/stdout with standard output a socket).  False with errno set.
bool writeThrough(const std::string &Path, const char *Data, size_t Size) {
  const int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (Fd >= 0)
    return closeKeepingErrno(Fd, writeAll(Fd, Data, Size));
  if (errno != ENXIO)
    return false;
  struct stat Info;
  const int Socket = ::stat(Path.c_str(), &Info) == 0 && S_ISSOCK(Info.st_mode)
                         ? socketDescriptor(Info)
                         : -1;
  if (Socket < 0) {
    errno = ENXIO;
    return false;
  }
  return writeAll(Socket, Data, Size);
}

/// False, with errno EFBIG, when a regular file of \p Size bytes is larger
/// than the process may write (RLIMIT_FSIZE, `ulimit -f`): a write would
/// stop at the limit, with SIGXFSZ or EFBIG, having changed the bytes before
/// it.  fallocate does not check the limit, so it is checked here.
bool withinFileSizeLimit(size_t Size) {
  struct rlimit Limit;
  if (::getrlimit(RLIMIT_FSIZE, &Limit) != 0 ||
      Limit.rlim_cur == RLIM_INFINITY || Size <= Limit.rlim_cur)
    return true;
  errno = EFBIG;
  return false;
}

/// Makes sure that the regular file \p Fd, of \p OldSize bytes, has room for
/// \p Size bytes before any of its bytes changes, so that a full file system
/// or a file-size limit fails the write while the file is still whole.
/// Where the file system cannot reserve blocks past the end (no fallocate),
/// the file is extended with zeros with posix_fallocate, which never changes
/// an existing byte, and cut back on failure.  False with errno set.
bool reserveSpace(int Fd, off_t OldSize, size_t Size) {
  if (!withinFileSizeLimit(Size))
    return false;
  if (Size == 0 ||
      ::fallocate(Fd, FALLOC_FL_KEEP_SIZE, 0, off_t(Size)) == 0)
    return true;
  if (errno != EOPNOTSUPP && errno != ENOSYS)
    return false;
  if (off_t(Size) <= OldSize)
    return true; // the blocks are there already
  const int Error = ::posix_fallocate(Fd, OldSize, off_t(Size) - OldSize);
  if (Error == 0)
    return true;
  // Back to the old size (which cannot fail for a file just extended).
  [[maybe_unused]] const int Cut = ::ftruncate(Fd, OldSize);
  errno = Error;
  return false;
}

/// Writes \p Data over the existing file \p Path, as spirv-opt does, keeping
/// the file itself (its hard links, owner, group, ACLs and extended
/// attributes).  The room is reserved first (reserveSpace), and the old
/// tail is cut only after the new bytes are written: a full file system or
/// a file-size limit is an error before any byte changes; an I/O error in the middle of the
/// write still leaves the file partly written.  False with errno set.
bool writeInPlace(const std::string &Path, const char *Data, size_t Size) {
  const int Fd = ::open(Path.c_str(), O_WRONLY);
  if (Fd < 0)
    return false;
  struct stat Info;
  bool Ok = ::fstat(Fd, &Info) == 0;
  if (Ok && S_ISREG(Info.st_mode))
    Ok = reserveSpace(Fd, Info.st_size, Size) && writeAll(Fd, Data, Size) &&
         ::ftruncate(Fd, off_t(Size)) == 0;
  else if (Ok)
    Ok = writeAll(Fd, Data, Size); // no longer a regular file
  return closeKeepingErrno(Fd, Ok);
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

/// True when \p Path has extended attributes that a new file would not get:
/// ACLs, user.* and the like.  The SELinux label is left out, since a new
/// file in the same directory gets the usual one.
bool hasExtendedAttributes(const std::string &Path) {
  const ssize_t Size = ::listxattr(Path.c_str(), nullptr, 0);
  if (Size <= 0)
    return false;
  std::string Names(size_t(Size), '\0');
  const ssize_t N = ::listxattr(Path.c_str(), Names.data(), Names.size());
  if (N <= 0)
    return N < 0; // changed meanwhile: play safe
  for (size_t I = 0; I < size_t(N);) {
    const std::string Name(Names.c_str() + I);
    if (!Name.empty() && Name != "security.selinux")
      return true;
    I += Name.size() + 1;
  }
  return false;
}

// The temporary file of a replacement is removed when SIGINT, SIGTERM or
// SIGHUP ends the run while it exists: the handler unlinks the name, made
// before the signal could come, and dies of the signal as it would have.
constexpr int CleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
std::atomic<const char *> ArmedTemp{nullptr};
static_assert(std::atomic<const char *>::is_always_lock_free,
              "the signal handler reads ArmedTemp");

void removeTempAndDie(int Signal) {
  if (const char *Name = ArmedTemp.load())
    ::unlink(Name);
  ::signal(Signal, SIG_DFL);
  ::raise(Signal); // delivered, with the default action, on return
}

/// Blocks the cleanup signals for its lifetime, so that the temporary's
/// creation or rename and ArmedTemp change together.
class BlockedSignals {
public:
  BlockedSignals() {
    sigset_t Set;
    sigemptyset(&Set);
    for (int Signal : CleanupSignals)
      sigaddset(&Set, Signal);
    ::pthread_sigmask(SIG_BLOCK, &Set, &Old);
  }
  ~BlockedSignals() { ::pthread_sigmask(SIG_SETMASK, &Old, nullptr); }

private:
  sigset_t Old;
};

/// A temporary file beside the output, named ".fatomic.XXXXXX" whatever the
/// output's name (which may be up to NAME_MAX bytes long).  It is removed
/// unless renamed over the output, also when a cleanup signal ends the run;
/// a signal that was ignored (nohup) stays ignored.
class TempFile {
public:
  TempFile() {
    struct sigaction Action = {};
    Action.sa_handler = removeTempAndDie;
    sigemptyset(&Action.sa_mask);
    for (int Signal : CleanupSignals)
      sigaddset(&Action.sa_mask, Signal);
    for (size_t I = 0; I < std::size(CleanupSignals); ++I) {
      ::sigaction(CleanupSignals[I], nullptr, &Saved[I]);
      if (Saved[I].sa_handler != SIG_IGN)
        ::sigaction(CleanupSignals[I], &Action, nullptr);
    }
  }
  ~TempFile() {
    remove();
    for (size_t I = 0; I < std::size(CleanupSignals); ++I)
      ::sigaction(CleanupSignals[I], &Saved[I], nullptr);
  }
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;

  /// Creates the file in the directory of \p Target.  False with errno set.
  bool create(const std::string &Target, mode_t Mode) {
    Name = (std::filesystem::path(Target).parent_path() / ".fatomic.XXXXXX")
               .string();
    BlockedSignals Block;
    Fd = createTemp(Name, Mode);
    if (Fd < 0)
      return false;
    ArmedTemp.store(Name.c_str());
    return true;
  }

  int fd() const { return Fd; }

  /// Closes the file; false, with errno set, when \p Ok is false or close
  /// fails.
  bool close(bool Ok) {
    const int F = Fd;
    Fd = -1;
    return closeKeepingErrno(F, Ok);
  }

  /// Renames the file over \p Target.  False with errno set.
  bool renameOver(const std::string &Target) {
    BlockedSignals Block;
    if (std::rename(Name.c_str(), Target.c_str()) != 0)
      return false;
    ArmedTemp.store(nullptr);
    Name.clear();
    return true;
  }

  /// Closes and removes the file, if not renamed; errno is kept.
  void remove() {
    const int Saved = errno;
    if (Fd >= 0)
      close(false);
    if (!Name.empty() && ArmedTemp.load()) {
      BlockedSignals Block;
      ::unlink(Name.c_str());
      ArmedTemp.store(nullptr);
    }
    Name.clear();
    errno = Saved;
  }

private:
  std::string Name;
  int Fd = -1;
  struct sigaction Saved[std::size(CleanupSignals)];
};

/// Gives the temporary \p Fd the owner and group of \p Existing where they
/// differ from its own.  False with errno set where we may not (EPERM).
bool matchOwner(int Fd, const struct stat &Existing) {
  struct stat Own;
  if (::fstat(Fd, &Own) != 0)
    return false;
  if (Own.st_uid == Existing.st_uid && Own.st_gid == Existing.st_gid)
    return true;
  return ::fchown(Fd, Existing.st_uid, Existing.st_gid) == 0;
}

/// Whether \p Error (of creating the temporary, giving it the owner or
/// renaming it over the output) says the output can only be written in
/// place: EBUSY and EXDEV where the output is a mount point (a file
/// bind-mounted into a container: rename may not replace it).
bool mayNotReplace(int Error) {
  return Error == EACCES || Error == EPERM || Error == EROFS ||
         Error == EINVAL || Error == EBUSY || Error == EXDEV;
}

/// Writes a regular or new file at \p Path: the bytes go to a temporary file
/// in the same directory, which then replaces \p Path in one rename, so that
/// a failure never leaves a partial file.  An existing file (\p Existing)
/// keeps its mode, owner and group; one we may not write is refused, as
/// spirv-opt refuses it.  Where a replacement could not keep the file what
/// it is (more than one hard link, extended attributes or ACLs, an owner or
/// group we may not give the temporary) or may not be made (a directory we
/// may not create files in, a sticky directory that forbids the rename), the
/// file is written in place, as spirv-opt writes it (writeInPlace); so is
/// a file that is a mount point, which no rename may replace.  False
/// with errno set on failure.
bool replaceRegular(const std::string &Path, const struct stat *Existing,
                    const char *Data, size_t Size) {
  mode_t Mode = 0;
  if (Existing) {
    // Opened without O_TRUNC: this only asks whether we may write it.
    const int Probe = ::open(Path.c_str(), O_WRONLY);
    if (Probe < 0)
      return false;
    ::close(Probe);
    if (Existing->st_nlink > 1 || hasExtendedAttributes(Path))
      return writeInPlace(Path, Data, Size);
    Mode = Existing->st_mode & 07777;
  }

  // Before the temporary exists: past the limit, a write would raise SIGXFSZ,
  // whose default action ends the run with the temporary left behind.
  if (!withinFileSizeLimit(Size))
    return false;
  TempFile Temp;
  if (!Temp.create(Path, Existing ? 0600 : 0666))
    return Existing && mayNotReplace(errno) && writeInPlace(Path, Data, Size);
  // A new file keeps the mode (and ACL) it was created with; a replacement
  // takes the old file's owner and group, then its mode (fchmod after
  // fchown, which clears the set-id bits), and no ACL of the directory's.
  if (Existing && !(matchOwner(Temp.fd(), *Existing) &&
                    dropInheritedAcl(Temp.fd()) &&
                    ::fchmod(Temp.fd(), Mode) == 0)) {
    if (!mayNotReplace(errno))
      return false;
    Temp.remove();
    return writeInPlace(Path, Data, Size);
  }
  const bool Written = writeAll(Temp.fd(), Data, Size);
  if (!Temp.close(Written))
    return false;
  if (Temp.renameOver(Path))
    return true;
  if (!Existing || !mayNotReplace(errno))
    return false;
  Temp.remove();
  return writeInPlace(Path, Data, Size);
}

/// Writes \p Data to the file system object at \p Path as spirv-opt would,
/// without ever leaving a partial regular file where it can be helped.
/// False with errno set.
bool writeFile(const std::string &Path, const char *Data, size_t Size) {
  struct stat Info;
  const bool Exists = ::stat(Path.c_str(), &Info) == 0;
  if (!Exists && errno != ENOENT)
    return false;
  // FIFOs, devices and sockets are written through, by whatever path leads
  // to them: /dev/stdout and /dev/fd/N too, whose link text is no file name
  // ("pipe:[1234]", "socket:[1234]").
  if (Exists && !S_ISREG(Info.st_mode))
    return writeThrough(Path, Data, Size);
  // A symlink is kept: what it points to is written (or created).
  const std::string Resolved = followLinks(Path);
  if (Resolved.empty())
    return false;
  if (!Exists)
    return replaceRegular(Resolved, nullptr, Data, Size);
  // A link whose text does not lead to the file it opens (/proc/self/fd/N
  // of a deleted or anonymous file) is written in place through the link.
  struct stat Target;
  if (::stat(Resolved.c_str(), &Target) != 0 ||
      Target.st_dev != Info.st_dev || Target.st_ino != Info.st_ino)
    return writeInPlace(Path, Data, Size);
  return replaceRegular(Resolved, &Target, Data, Size);
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
