"""Imported first by the test scripts that send signals to the programs
they start: a signal ignored by whoever started the tests stays ignored
in every child across exec (a shell's background job ignores SIGINT and
SIGQUIT, nohup ignores SIGHUP), and a program rightly leaves an ignored
signal ignored, so the tests would see no effect. The test process takes
the defaults back; its children then start with them."""
import signal

# SIGPIPE is not among them: Python ignores it in itself on purpose, and
# subprocess gives the children its default back.
for _name in ("SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGALRM", "SIGUSR1",
              "SIGUSR2"):
    _sig = getattr(signal, _name, None)
    if _sig is not None and signal.getsignal(_sig) == signal.SIG_IGN:
        signal.signal(_sig, signal.default_int_handler if _name == "SIGINT"
                      else signal.SIG_DFL)
