package jobs

// Passes counts the runner's heartbeat and rescue passes, so that a test
// can wait for passes to happen instead of for time to pass.
func (r *Runner) Passes() int64 { return r.passes.Load() }
