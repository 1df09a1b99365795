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

/// \p Text less its trailing "; IR after last pass" block, which spvtools
/// prints last.
std::string withoutModuleAfter(const std::string &Text) {
  const std::string Marker = std::string(AfterLastPass) + "\n";
  size_t At = Text.rfind("\n" + Marker);
  if (At != std::string::npos)
    return Text.substr(0, At + 1);
  return Text.compare(0, Marker.size(), Marker) == 0 ? "" : Text;
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

void StepReport::flushOptimizer(bool Last) {
  std::string Text = Captured.str();
  Captured.str("");
  if (PrintAll && !Last)
    Text = withoutModuleAfter(Text);
  std::istringstream Lines(Text);
  std::string Line;
  while (std::getline(Lines, Line)) {
    if (TimeReport && isTimeHeader(Line)) {
      printHeaderOnce();
      continue;
    }
    std::cerr << Line << '\n';
  }
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
