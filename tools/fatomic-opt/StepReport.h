//===- StepReport.h - --print-all and --time-report over all steps --------===//
//
// spirv-opt prints --print-all and --time-report for one optimizer: the
// time table's header once, the module before each pass and after the last
// one.  fatomic-opt runs one spvtools::Optimizer per run of consecutive
// spirv-opt flags, with the lowering between them, so each optimizer would
// print a header of its own and the module "after last pass" in the middle
// of the pipeline.  StepReport collects what the optimizers print, and
// writes to standard error what spirv-opt would print for the whole
// pipeline: one header, the lowering's own row and module dumps in their
// places, and the module after the last pass once.  It writes each line as
// the optimizer prints it (filtered, never held back), so that a pass that
// crashes or hangs leaves what came before it on the screen, in order with
// the messages of the validator.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_OPT_STEPREPORT_H
#define FATOMIC_OPT_STEPREPORT_H

#include <ostream>
#include <streambuf>
#include <string>

namespace fatomic_opt {

/// What a process has used so far: CPU, wall, user and system time in
/// seconds, peak resident memory in KiB and page faults.
struct Usage {
  double Cpu = 0, Wall = 0, Usr = 0, Sys = 0;
  long Rss = 0, PageFaults = 0;

  static Usage now();
  Usage operator-(const Usage &Earlier) const;
  Usage &operator+=(const Usage &More);
};

class StepReport {
public:
  StepReport(bool PrintAll, bool TimeReport)
      : PrintAll(PrintAll), TimeReport(TimeReport), Filter(*this), Out(&Filter) {}

  /// The streams to give an optimizer (null when not asked for).
  std::ostream *printAllStream() { return PrintAll ? &Out : nullptr; }
  std::ostream *timeReportStream() { return TimeReport ? &Out : nullptr; }

  /// Before an optimizer runs: whether it runs the pipeline's last step
  /// (\p Last), so that its module "after last pass" is printed.
  void beginOptimizer(bool Last);

  /// After it ran: ends its last line and its "after last pass" block.
  void endOptimizer();

  /// --print-all: \p Title ("; IR before pass NAME") and the module's
  /// disassembly, as spirv-opt prints them.
  void printModule(const std::string &Title, const std::string &Disassembly);

  /// --time-report: the row of a step that is not an optimizer's pass.
  void printTime(const std::string &PassName, const Usage &Used);

private:
  /// Hands each complete line the optimizer writes to StepReport::line.
  class LineBuffer final : public std::streambuf {
  public:
    explicit LineBuffer(StepReport &R) : R(R) {}
    void finish();

  protected:
    int_type overflow(int_type C) override;
    std::streamsize xsputn(const char *S, std::streamsize N) override;

  private:
    StepReport &R;
    std::string Pending;
  };

  void line(const std::string &Line);
  void printHeaderOnce();

  const bool PrintAll;
  const bool TimeReport;
  bool HeaderPrinted = false;
  bool LastStep = true;     ///< beginOptimizer's \p Last
  bool InModuleAfter = false; ///< inside a held-back "after last pass" block
  LineBuffer Filter;
  std::ostream Out;
};

} // namespace fatomic_opt

#endif // FATOMIC_OPT_STEPREPORT_H
