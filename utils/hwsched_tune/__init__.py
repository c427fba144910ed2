"""hwsched_tune: measure schedule candidates and record the best in a tuning
database that hwsched's transform ops read ($HWSCHED_TUNING_DB).

The command is `hwsched-tune` (tools/hwsched-tune); the modules are
importable on their own (bench/tuning uses them):

  paths       where the tools, the scripts and the shared bench helpers are
  space       the model's candidates and the script's knobs (the
              candidates export of select_tile_config / tuned_knob)
  database    the tuning database file (read, update, resume)
  harness     a timing and checking driver around a payload function
  tasks       compile / run one candidate (what executors run)
  executor    local threads or a Dask distributed cluster
  search      which candidates to measure next and when to stop
  progress    progress bar and time estimate
  tuner       the whole run and its report
  cli         the command line
"""
