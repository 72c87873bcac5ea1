package main

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	"quire/internal/ratelimit"
)

// Rate-limit environment variables.
const (
	envRateLimit        = "QUIRE_RATE_LIMIT"
	envRateLimitContent = "QUIRE_RATE_LIMIT_CONTENT"
	envRateLimitWindow  = "QUIRE_RATE_LIMIT_WINDOW"
	envRateLimitAnon    = "QUIRE_RATE_LIMIT_ANONYMOUS"
)

// rateLimitFlags are serve's rate-limit flags.
type rateLimitFlags struct {
	limit, content, anonymous *int
	window                    *time.Duration
	// envErr is an environment value that does not parse, reported once
	// the flags are parsed (a flag given instead wins).
	envErr map[string]error
}

// rateLimitFlags declares the rate-limit flags, with their environment
// fallbacks.
func (e *env) rateLimitFlags(fs *flag.FlagSet) *rateLimitFlags {
	f := &rateLimitFlags{envErr: map[string]error{}}
	intFrom := func(flagName, name string, def int) int {
		v := e.envOr(name, "")
		if v == "" {
			return def
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			f.envErr[flagName] = fmt.Errorf("%s=%q is not a count (0 turns the limit off)", name, v)
			return def
		}
		return n
	}
	window := ratelimit.DefaultWindow
	if v := e.envOr(envRateLimitWindow, ""); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			f.envErr["rate-limit-window"] = fmt.Errorf("%s=%q is not a duration (such as 1h or 15m)", envRateLimitWindow, v)
		} else {
			window = d
		}
	}
	f.limit = fs.Int("rate-limit", intFrom("rate-limit", envRateLimit, ratelimit.DefaultLimit),
		"`N`: points each user may spend per window on both doors: 1 per REST request, a GraphQL operation's cost; 0 turns it off (env "+envRateLimit+")")
	f.content = fs.Int("rate-limit-content", intFrom("rate-limit-content", envRateLimitContent, ratelimit.DefaultContentLimit),
		"`N`: change requests and pages each user may create per window; 0 turns it off (env "+envRateLimitContent+")")
	f.anonymous = fs.Int("rate-limit-anonymous", intFrom("rate-limit-anonymous", envRateLimitAnon, ratelimit.DefaultAnonymousLimit),
		"`N`: requests without a valid token each client address (the connection's) may send per window; 0 turns it off (env "+envRateLimitAnon+")")
	f.window = fs.Duration("rate-limit-window", window, "`DURATION` of a rate-limit window, whole seconds (env "+envRateLimitWindow+")")
	return f
}

// config returns the configuration the flags give, once fs is parsed.
func (f *rateLimitFlags) config(fs *flag.FlagSet) (ratelimit.Config, error) {
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	for _, name := range []string{"rate-limit", "rate-limit-content", "rate-limit-anonymous", "rate-limit-window"} {
		if err := f.envErr[name]; err != nil && !given[name] {
			return ratelimit.Config{}, err
		}
	}
	c := ratelimit.Config{Limit: *f.limit, ContentLimit: *f.content, AnonymousLimit: *f.anonymous, Window: *f.window}
	if *f.window <= 0 {
		return c, fmt.Errorf("--rate-limit-window %s must be positive", *f.window)
	}
	return c, c.Validate()
}
