"""Writes a tuning database from a candidates export (JSON lines):
db-from-export.py EXPORT RANK [KNOB=VALUE[,VALUE...] ...]
    [--schedule-packed=N,..] [--block=BM,BN,BK]
picks the model's candidate of rank RANK for every problem of the export
(--block replaces its block tile, e.g. by one no rule allows). A knob given
several values gets the i-th for the i-th problem of the export (select_tile_config's
or tuned_knob's records, whichever come first)."""
import json
import sys

export, rank = sys.argv[1], int(sys.argv[2])
knobs, schedule, block = {}, None, None
for arg in sys.argv[3:]:
    if arg.startswith("--block="):
        block = [int(x) for x in arg.split("=", 1)[1].split(",")]
    elif arg.startswith("--schedule-packed="):
        packed = [int(x) for x in arg.split("=", 1)[1].split(",") if x]
        schedule = {"packed_operands": packed}
    else:
        name, value = arg.split("=")
        knobs[name] = [int(v) for v in value.split(",")]
entries = {}
for line in open(export):
    record = json.loads(line)
    if "hwsched_tuning_candidates" in record:
        entry = {"config": record["candidates"][rank]["config"],
                 "schedule": schedule if schedule is not None else record["schedule"],
                 "measured_ns": 1234.0}
    elif "hwsched_tuning_knob" in record:
        if record["key"] in entries:
            continue
        entry = {}
    else:
        continue
    index = len(entries)
    entry["knobs"] = {name: values[min(index, len(values) - 1)]
                      for name, values in knobs.items()}
    if block and "config" in entry:
        entry["config"] = dict(entry["config"], block=block)
    entries[record["key"]] = entry
json.dump({"hwsched_tuning_db": 1, "entries": entries}, sys.stdout, indent=1)
