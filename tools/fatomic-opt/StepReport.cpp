//===- StepReport.cpp - --print-all and --time-report over all steps ------===//

#include "StepReport.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <iostream>

#include <sys/resource.h>

namespace fatomic_opt {

namespace {

constexpr const char *AfterLastPass = "; IR after last pass";

double seconds(const timeval &T) { return T.tv_sec + T.tv_usec / 1e6; }

/// True for the header line of spvtools' time table.
bool isTimeHeader(const std::string &Line) {
  const size_t First = Line.find_first_not_of(' ');
  return First != std::string::npos &&
         Line.compare(First, 9, "PASS name") == 0;
}

} // namespace

Usage Usage::now() {
  Usage U;
  U.Cpu = double(std::clock()) / CLOCKS_PER_SEC;
  U.Wall = std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
               .count();
  rusage R{};
  if (::getrusage(RUSAGE_SELF, &R) == 0) {
    U.Usr = seconds(R.ru_utime);
    U.Sys = seconds(R.ru_stime);
    U.Rss = R.ru_maxrss;
    U.PageFaults = R.ru_minflt + R.ru_majflt;
  }
  return U;
}

Usage Usage::operator-(const Usage &E) const {
  Usage D;
  D.Cpu = Cpu - E.Cpu;
  D.Wall = Wall - E.Wall;
  D.Usr = Usr - E.Usr;
  D.Sys = Sys - E.Sys;
  D.Rss = Rss - E.Rss;
  D.PageFaults = PageFaults - E.PageFaults;
  return D;
}

Usage &Usage::operator+=(const Usage &M) {
  Cpu += M.Cpu;
  Wall += M.Wall;
  Usr += M.Usr;
  Sys += M.Sys;
  Rss += M.Rss;
  PageFaults += M.PageFaults;
  return *this;
}

StepReport::LineBuffer::int_type StepReport::LineBuffer::overflow(int_type C) {
  if (traits_type::eq_int_type(C, traits_type::eof()))
    return traits_type::not_eof(C);
  const char Ch = traits_type::to_char_type(C);
  xsputn(&Ch, 1);
  return C;
}

std::streamsize StepReport::LineBuffer::xsputn(const char *S, std::streamsize N) {
  for (std::streamsize I = 0; I < N; ++I) {
    if (S[I] != '\n') {
      Pending += S[I];
      continue;
    }
    R.line(Pending);
    Pending.clear();
  }
  return N;
}

void StepReport::LineBuffer::finish() {
  if (!Pending.empty())
    R.line(Pending);
  Pending.clear();
}

void StepReport::beginOptimizer(bool Last) {
  LastStep = Last;
  InModuleAfter = false;
}

void StepReport::endOptimizer() {
  Filter.finish();
  InModuleAfter = false;
  std::cerr.flush();
}

void StepReport::line(const std::string &Line) {
  if (TimeReport && isTimeHeader(Line)) {
    printHeaderOnce();
    return;
  }
  // spvtools prints the module after its last pass at the end of Run: held
  // back where a later step follows, as spirv-opt prints it once.
  if (PrintAll && !LastStep && Line == AfterLastPass)
    InModuleAfter = true;
  if (InModuleAfter)
    return;
  std::cerr << Line << '\n';
  // Line by line, so that a crash in the next pass loses nothing.
  std::cerr.flush();
}

void StepReport::printModule(const std::string &Title,
                             const std::string &Disassembly) {
  if (PrintAll)
    std::cerr << Title << '\n' << Disassembly << std::endl;
}

void StepReport::printHeaderOnce() {
  if (HeaderPrinted)
    return;
  HeaderPrinted = true;
  // The columns of spvtools' PrintTimerDescription.
  std::cerr << std::setw(30) << "PASS name" << std::setw(12) << "CPU time"
            << std::setw(12) << "WALL time" << std::setw(12) << "USR time"
            << std::setw(12) << "SYS time" << std::setw(12) << "RSS delta"
            << std::setw(16) << "PGFault delta" << '\n';
}

void StepReport::printTime(const std::string &PassName, const Usage &Used) {
  if (!TimeReport)
    return;
  printHeaderOnce();
  // The row format of spvtools' ScopedTimer.
  std::ios Saved(nullptr);
  Saved.copyfmt(std::cerr);
  std::cerr << std::setw(30) << PassName << std::fixed << std::setprecision(2)
            << std::setw(12) << Used.Cpu << std::setw(12) << Used.Wall
            << std::setw(12) << Used.Usr << std::setw(12) << Used.Sys
            << std::setw(12) << Used.Rss << std::setw(16) << Used.PageFaults
            << '\n'
            << std::flush;
  std::cerr.copyfmt(Saved);
}

} // namespace fatomic_opt
