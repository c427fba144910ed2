"""A progress bar with an estimate of the time left, on stderr.

The estimate is the mean time per finished step times the steps left; a
step is one candidate measured (compiling included). On a terminal the bar
redraws in place; otherwise (logs, lit) one line per step.
"""

import sys
import time


def _fmt(seconds):
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


class Progress:
    def __init__(self, total, label, stream=sys.stderr, width=30, quiet=False):
        self.total = max(total, 1)
        self.label = label
        self.stream = stream
        self.width = width
        self.done = 0
        self.start = time.time()
        self.quiet = quiet
        self.tty = hasattr(stream, "isatty") and stream.isatty()

    def eta(self):
        if self.done == 0:
            return None
        per = (time.time() - self.start) / self.done
        return per * (self.total - self.done)

    def update(self, done, note=""):
        self.done = min(done, self.total)
        if self.quiet:
            return
        filled = int(self.width * self.done / self.total)
        bar = "#" * filled + "." * (self.width - filled)
        eta = self.eta()
        left = "?" if eta is None else _fmt(eta)
        line = (f"{self.label} [{bar}] {self.done}/{self.total} "
                f"elapsed {_fmt(time.time() - self.start)} left ~{left}"
                f"{'  ' + note if note else ''}")
        if self.tty:
            self.stream.write("\r" + line[:160].ljust(160))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def finish(self, note=""):
        self.update(self.done, note)
        if self.tty and not self.quiet:
            self.stream.write("\n")
            self.stream.flush()
