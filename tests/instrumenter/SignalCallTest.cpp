// A signal the program sends itself (SignalProbe): raise(), kill(getpid(), ...) and
// pthread_kill(pthread_self(), ...) run the handler inside the call, so the call gets a record
// for any callee (sleuth_forward) under its control, the signal number marked as the handler's
// parameter, and the record is dropped after the call (sleuth_signalled). A signal sent to
// another process gets none: no handler of this one runs inside that call.
#include "RewriteFixture.h"

#include <regex>

using namespace sleuth;

namespace {

class SignalCallTest : public RewriteFixture {
protected:
  /// The rewritten line of a C program's with `Marker`, in a function that sends a signal.
  std::string rewrittenLine(const std::string &Body, const std::string &Marker) {
    return lineWith(rewrite("signals.c",
                            "#include <signal.h>\n"
                            "#include <pthread.h>\n"
                            "#include <unistd.h>\n"
                            "static int seen;\n"
                            "static void on_signal(int sig) { seen = sig; }\n"
                            "int main(int argc, char **argv) {\n"
                            "  int which = SIGUSR1;\n"
                            "  (void)argv;\n"
                            "  signal(SIGUSR1, on_signal);\n"
                            "  if (argc > 0) {\n" +
                                Body +
                                "\n  }\n"
                                "  return seen;\n"
                                "}\n",
                            {"-std=gnu99"}),
                    Marker);
  }
};

TEST_F(SignalCallTest, RaiseRecordsACallOfAnyCalleeUnderItsControl) {
  // Without the record the handler entered with none: its statements had no control.
  std::string Line = rewrittenLine("    raise(which);", "raise(");
  std::smatch M;
  ASSERT_TRUE(std::regex_search(Line, M,
                                std::regex("\\(sleuth_forward\\(&__sleuth_tu, ([0-9]+)u, "
                                           "\\(__sleuth_tu\\.base \\+ ([0-9]+)u\\), 0u\\), "
                                           "sleuth_signalled\\(&__sleuth_tu, ([0-9]+)u, raise\\(")))
      << Line;
  EXPECT_EQ(M[1], M[3]) << "the record dropped after the call is the call's";
  std::string Site = M[1];
  EXPECT_TRUE(std::regex_search(Line, std::regex("raise\\(\\(sleuth_arg\\(&__sleuth_tu, " + Site +
                                                 "u, 1u\\), [^)]*\\)?[^)]*which\\)\\)")))
      << "the signal number is the handler's parameter: " << Line;
}

TEST_F(SignalCallTest, KillOfTheProcessItselfIsRecorded) {
  std::string Line = rewrittenLine("    kill(getpid(), SIGUSR1);", "kill(");
  EXPECT_NE(Line.find("sleuth_forward("), std::string::npos) << Line;
  Line = rewrittenLine("    pthread_kill(pthread_self(), SIGUSR1);", "pthread_kill(");
  EXPECT_NE(Line.find("sleuth_forward("), std::string::npos) << Line;
}

TEST_F(SignalCallTest, KillOfAnotherProcessIsNot) {
  std::string Line = rewrittenLine("    kill(argc + 1000, SIGUSR1);", "kill(");
  EXPECT_EQ(Line.find("sleuth_forward("), std::string::npos) << Line;
  EXPECT_EQ(Line.find("sleuth_signalled("), std::string::npos) << Line;
}

} // namespace
