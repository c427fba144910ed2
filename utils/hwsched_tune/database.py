"""The tuning database file: what the ops read and what the tuner resumes from.

Format (version 1, docs/tuning.md): {"hwsched_tuning_db": 1, "entries":
{key: entry}}. The ops read an entry's "config", "schedule" and "knobs"
(and print "measured_ns"); everything else is the tuner's record, kept in
the same entry so that a run interrupted at any point resumes from the file:
"tuning" holds every candidate measured so far (its time or why it failed)
and whether the run finished.

Writes are atomic (a temporary file renamed over the old one), so the file
is valid whenever an op or a person reads it.
"""

import json
import os
import tempfile

VERSION = 1


class DatabaseError(Exception):
    pass


def load(path):
    """The database at `path` ({"hwsched_tuning_db": 1, "entries": {}} when
    the file does not exist)."""
    if not os.path.exists(path):
        return {"hwsched_tuning_db": VERSION, "entries": {}}
    try:
        with open(path) as f:
            data = json.load(f)
    except ValueError as e:
        raise DatabaseError(f"tuning database '{path}': invalid JSON: {e}")
    except OSError as e:
        raise DatabaseError(f"tuning database '{path}': cannot read: {e}")
    if not isinstance(data, dict) or data.get("hwsched_tuning_db") != VERSION:
        raise DatabaseError(f"tuning database '{path}': at 'hwsched_tuning_db': "
                            f"expected the format version {VERSION}")
    if not isinstance(data.get("entries"), dict):
        raise DatabaseError(f"tuning database '{path}': at 'entries': expected an object")
    return data


def save(path, data):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".hwsched-tune-", dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


class Entry:
    """The tuner's view of one entry while it tunes the problem."""

    def __init__(self, db_path, key):
        self.path = db_path
        self.key = key
        self.data = load(db_path)
        self.entry = self.data["entries"].setdefault(key, {})
        self.tuning = self.entry.setdefault("tuning", {})
        self.measured = self.tuning.setdefault("candidates", {})

    def resumed(self):
        """Candidate ids measured (or failed) by an earlier run."""
        return set(self.measured)

    def record(self, ident, result):
        self.measured[ident] = result

    def set_winner(self, config, knobs, schedule, measured_ns, summary, finished):
        if config is not None:
            self.entry["config"] = config
        else:
            self.entry.pop("config", None)
        self.entry["knobs"] = dict(knobs)
        self.entry["schedule"] = schedule
        if measured_ns is None:
            self.entry.pop("measured_ns", None)
        else:
            self.entry["measured_ns"] = measured_ns
        self.tuning.update(summary)
        self.tuning["finished"] = finished

    def flush(self):
        # Merge into the file as it is now: another problem of the same run
        # (or a person) may have written other entries meanwhile.
        current = load(self.path)
        current["entries"][self.key] = self.entry
        save(self.path, current)
        self.data = current
